import { useState } from 'react';
import { Navigate } from 'react-router';
import { describeError } from '../api/api-error';
import { useSession } from '../session/session';
import type { WalletKind } from '../session/wallet-provider';

/**
 * Sign-In with Ethereum through the browser's wallet, or the development
 * wallet on paper fleets; and, where config.json names one, through an
 * OpenID Connect provider.
 */
export function SignInPage() {
  const { session, signIn, signInWithProvider, config, notice } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (session) {
    return <Navigate to="/trades" replace />;
  }
  const injected = Boolean(window.ethereum);
  const offerDevelopmentWallet = !injected && config.paper;
  const start = (kind: WalletKind) => {
    setBusy(true);
    setError(null);
    signIn(kind).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(describeError(failure));
      },
    );
  };
  return (
    <main className="sign-in">
      <h1>Spread trading console</h1>
      {config.identity_url && (
        <p>
          Sign in with your wallet: it signs a Sign-In with Ethereum message (EIP-4361); nothing is
          sent on chain.
        </p>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {config.oidc && <ProviderSignIn issuer={config.oidc.issuer} start={signInWithProvider} />}
      {!config.identity_url && !config.oidc && (
        <p>
          This deployment signs users in through its own identity provider, and this console is not
          set up to reach it (OIDC_ISSUER_URL, OIDC_CLIENT_ID).
        </p>
      )}
      {config.identity_url && injected && (
        <button type="button" onClick={() => start('injected')} disabled={busy}>
          Sign in with wallet
        </button>
      )}
      {config.identity_url && offerDevelopmentWallet && (
        <>
          <p>
            No wallet in this browser. The fleet trades on paper venues, so you may use a
            development wallet: a key kept in this browser&apos;s storage.
          </p>
          <button type="button" onClick={() => start('development')} disabled={busy}>
            Use development wallet
          </button>
        </>
      )}
      {config.identity_url && !injected && !config.paper && (
        <p>
          No wallet found in this browser: install one (for example a browser extension) to sign in.
        </p>
      )}
      {busy && <p role="status">Waiting for the wallet&apos;s signature…</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}

/** The OpenID Connect provider's sign-in: the browser leaves for it and comes back to /callback. */
function ProviderSignIn({ issuer, start }: { issuer: string; start: () => Promise<void> }) {
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = () => {
    setLeaving(true);
    setError(null);
    start().catch((failure: unknown) => {
      setLeaving(false);
      setError(`The identity provider could not be reached: ${describeError(failure)}`);
    });
  };
  return (
    <section aria-label="Identity provider">
      <button type="button" onClick={go} disabled={leaving}>
        Sign in with {new URL(issuer).host}
      </button>
      {leaving && <p role="status">Going to the identity provider…</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
