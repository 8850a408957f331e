import { useState } from 'react';
import { Navigate } from 'react-router';
import { describeError } from '../api/api-error';
import { useSession } from '../session/session';
import type { WalletKind } from '../session/wallet-provider';

/** Sign-In with Ethereum through the browser's wallet, or the development wallet on paper fleets. */
export function SignInPage() {
  const { session, signIn, config, notice } = useSession();
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
      <p>
        Sign in with your wallet: it signs a Sign-In with Ethereum message (EIP-4361); nothing is
        sent on chain.
      </p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {!config.identity_url && (
        <p>This deployment signs users in through its own identity provider.</p>
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
