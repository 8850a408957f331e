import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { IdentityError, describeError } from '../api/api-error';
import { consoleApi } from '../api/console-api';
import type { StsClient } from '@sts/sdk';
import type { ConsoleConfig } from '../config';
import { refreshToken, signInWithEthereum, type IssuedToken } from './siwe';
import { walletOf, type Eip1193Provider, type WalletKind } from './wallet-provider';

export interface SignedIn {
  token: string;
  expiresAt: string;
  userId: string;
  /** The primary wallet (the JWT's wallet claim). */
  wallet: string;
  walletKind: WalletKind;
}

interface SessionContextValue {
  config: ConsoleConfig;
  api: StsClient;
  session: SignedIn | null;
  /** Why the last session ended, when it did not end by the user's hand. */
  notice: string | null;
  signIn(kind: WalletKind): Promise<void>;
  signOut(notice?: string): void;
  /** The wallet the session signed in with (links further wallets, signs challenges). */
  wallet(): Eip1193Provider | undefined;
}

const SessionContext = createContext<SessionContextValue | null>(null);
const STORED = 'sts-console.session';
/** A refresh that fails for a reason other than a refused token is tried again this soon. */
const REFRESH_RETRY_MS = 10_000;

function storedSession(): SignedIn | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORED) ?? 'null') as SignedIn | null;
    return saved && Date.parse(saved.expiresAt) > Date.now() ? saved : null;
  } catch {
    return null;
  }
}

/**
 * When to renew a token: three quarters into what is left of its life (about
 * 11 minutes into a 15-minute token), so a renewal that fails has time to be retried.
 */
export const refreshDelayMs = (expiresAt: string, now = Date.now()): number =>
  Math.max(1_000, Math.floor((Date.parse(expiresAt) - now) * 0.75));

export function SessionProvider({
  config,
  children,
}: {
  config: ConsoleConfig;
  children: ReactNode;
}) {
  const [session, setSession] = useState<SignedIn | null>(storedSession);
  const [notice, setNotice] = useState<string | null>(null);
  const [api] = useState(() => consoleApi(config.api_base, storedSession()?.token ?? null));

  const adopt = useCallback(
    (next: SignedIn | null) => {
      api.authorize(next?.token);
      if (next) {
        sessionStorage.setItem(STORED, JSON.stringify(next));
      } else {
        sessionStorage.removeItem(STORED);
      }
      setSession(next);
    },
    [api],
  );

  const signOut = useCallback(
    (why?: string) => {
      adopt(null);
      setNotice(why ?? null);
    },
    [adopt],
  );

  const signIn = useCallback(
    async (kind: WalletKind) => {
      const wallet = walletOf(kind);
      if (!wallet) {
        throw new Error('no wallet in this browser');
      }
      if (!config.identity_url) {
        throw new Error('this deployment signs in through its own identity provider');
      }
      const issued = await signInWithEthereum(wallet, config.identity_url);
      api.authorize(issued.token);
      // The gateway creates the account and its primary wallet on the first sign-in.
      const verified = await api.verifySession();
      setNotice(null);
      adopt({
        token: issued.token,
        expiresAt: issued.expires_at,
        userId: verified.user_id,
        wallet: verified.wallet_address,
        walletKind: kind,
      });
    },
    [adopt, api, config.identity_url],
  );

  // Renew the JWT before it expires, for as long as the console is open.
  useEffect(() => {
    if (!session || !config.identity_url) {
      return;
    }
    const identityUrl = config.identity_url;
    let timer = 0;
    const renew = (): void => {
      refreshToken(identityUrl, session.token).then(
        (issued: IssuedToken) =>
          adopt({ ...session, token: issued.token, expiresAt: issued.expires_at }),
        (error: unknown) => {
          if (error instanceof IdentityError && error.status === 401) {
            signOut('Your session has ended: sign in again.');
          } else if (Date.parse(session.expiresAt) - Date.now() > REFRESH_RETRY_MS) {
            timer = window.setTimeout(renew, REFRESH_RETRY_MS);
          } else {
            signOut(`Your session could not be renewed: ${describeError(error)}`);
          }
        },
      );
    };
    timer = window.setTimeout(renew, refreshDelayMs(session.expiresAt));
    return () => window.clearTimeout(timer);
  }, [session, config.identity_url, adopt, signOut]);

  const value = useMemo<SessionContextValue>(
    () => ({
      config,
      api,
      session,
      notice,
      signIn,
      signOut,
      wallet: () => (session ? walletOf(session.walletKind) : undefined),
    }),
    [config, api, session, notice, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) {
    throw new Error('useSession outside SessionProvider');
  }
  return value;
}

/** The signed-in session; pages behind the sign-in gate only. */
export function useSignedIn(): SignedIn & { api: StsClient } {
  const { session, api } = useSession();
  if (!session) {
    throw new Error('useSignedIn without a session');
  }
  return { ...session, api };
}
