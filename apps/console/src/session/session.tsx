import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { describeError } from '../api/api-error';
import { consoleApi } from '../api/console-api';
import type { StsClient } from '@sts/sdk';
import type { ConsoleConfig } from '../config';
import { beginOidcSignIn, completeOidcSignIn, endOidcSession } from './oidc';
import { isRefusedRenewal, renewalOf, type OidcSession, type Renewed } from './renewal';
import { signInWithEthereum } from './siwe';
import { walletOf, type Eip1193Provider, type WalletKind } from './wallet-provider';

export interface SignedIn {
  token: string;
  expiresAt: string;
  userId: string;
  /**
   * The account's primary wallet; null for an account whose sign-in named no
   * wallet (an OpenID Connect provider's) until it links one.
   */
  wallet: string | null;
  walletKind: WalletKind;
  /** Signed in through the OpenID Connect provider: its refresh token (when it issued one) and ID token. */
  oidc?: OidcSession;
}

interface SessionContextValue {
  config: ConsoleConfig;
  api: StsClient;
  session: SignedIn | null;
  /** Why the last session ended, when it did not end by the user's hand. */
  notice: string | null;
  signIn(kind: WalletKind): Promise<void>;
  /** Leaves for the OpenID Connect provider's sign-in page. */
  signInWithProvider(): Promise<void>;
  /** Back on the callback page: the code for tokens, then the account as for any sign-in. */
  completeProviderSignIn(callbackUrl: URL): Promise<void>;
  signOut(notice?: string): void;
  /**
   * The user's "Sign out": the console's session, and where it came from an
   * OpenID Connect provider, the provider's too (refresh token revoked, the
   * browser sent to its end_session_endpoint).
   */
  signOutEverywhere(): Promise<void>;
  /** The first wallet of a wallet-less account is linked: it is the primary. */
  walletLinked(address: string): void;
  /** Signs challenges with this wallet from now on (the development wallet, on a paper fleet). */
  chooseWallet(kind: WalletKind): void;
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

  const signInWithProvider = useCallback(async () => {
    if (!config.oidc) {
      throw new Error('this deployment names no OpenID Connect provider');
    }
    await beginOidcSignIn(config.oidc);
  }, [config.oidc]);

  const completeProviderSignIn = useCallback(
    async (callbackUrl: URL) => {
      if (!config.oidc) {
        throw new Error('this deployment names no OpenID Connect provider');
      }
      const tokens = await completeOidcSignIn(config.oidc, callbackUrl);
      api.authorize(tokens.token);
      // The account of the token's subject, made on the first sign-in; with no wallet claim it
      // has no wallet until one is linked (the console then asks for one first).
      const verified = await api.verifySession();
      setNotice(null);
      adopt({
        token: tokens.token,
        expiresAt: tokens.expiresAt,
        userId: verified.user_id,
        wallet: verified.wallet_address,
        // A wallet in this browser, if any, signs the challenges that link further wallets.
        walletKind: 'injected',
        oidc: { refreshToken: tokens.refreshToken, idToken: tokens.idToken },
      });
    },
    [adopt, api, config.oidc],
  );

  const signOutEverywhere = useCallback(async () => {
    const ending = session;
    signOut();
    if (ending?.oidc && config.oidc) {
      const providerSignOut = await endOidcSession(config.oidc, ending.oidc).catch(() => null);
      if (providerSignOut) {
        window.location.assign(providerSignOut);
      }
    }
  }, [session, signOut, config.oidc]);

  const walletLinked = useCallback(
    (address: string) => {
      if (session && !session.wallet) {
        adopt({ ...session, wallet: address.toLowerCase() });
      }
    },
    [session, adopt],
  );

  const chooseWallet = useCallback(
    (kind: WalletKind) => {
      if (session) {
        adopt({ ...session, walletKind: kind });
      }
    },
    [session, adopt],
  );

  // Renew the token before it expires, for as long as the console is open.
  useEffect(() => {
    if (!session) {
      return;
    }
    const renewal = renewalOf(config, session);
    let timer = 0;
    if (!renewal) {
      // Nothing to renew it with: the session ends with its token, and the user signs in again.
      const left = Math.max(0, Date.parse(session.expiresAt) - Date.now());
      timer = window.setTimeout(() => signOut('Your session has ended: sign in again.'), left);
      return () => window.clearTimeout(timer);
    }
    const renew = (): void => {
      renewal().then(
        (renewed: Renewed) => adopt({ ...session, ...renewed }),
        (error: unknown) => {
          if (isRefusedRenewal(error)) {
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
  }, [session, config, adopt, signOut]);

  const value = useMemo<SessionContextValue>(
    () => ({
      config,
      api,
      session,
      notice,
      signIn,
      signInWithProvider,
      completeProviderSignIn,
      signOut,
      signOutEverywhere,
      walletLinked,
      chooseWallet,
      wallet: () => (session ? walletOf(session.walletKind) : undefined),
    }),
    [
      config,
      api,
      session,
      notice,
      signIn,
      signInWithProvider,
      completeProviderSignIn,
      signOut,
      signOutEverywhere,
      walletLinked,
      chooseWallet,
    ],
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

/** The signed-in session with its primary wallet; pages behind the sign-in and wallet gates only. */
export function useSignedIn(): SignedIn & { wallet: string; api: StsClient } {
  const { session, api } = useSession();
  if (!session?.wallet) {
    throw new Error('useSignedIn without a session, or before a wallet is linked');
  }
  return { ...session, wallet: session.wallet, api };
}
