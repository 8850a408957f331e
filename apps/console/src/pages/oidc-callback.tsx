import { useEffect, useRef, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { describeError } from '../api/api-error';
import { useSession } from '../session/session';

/**
 * Where the OpenID Connect provider sends the browser back (`/console/callback`,
 * the client's redirect URI): the code for tokens, then on to the trades.
 */
export function OidcCallbackPage() {
  const { session, completeProviderSignIn } = useSession();
  const [error, setError] = useState<string | null>(null);
  // The code and the PKCE verifier are good once: a second run (React's strict mode) must not spend them.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    const callbackUrl = new URL(window.location.href);
    // The code leaves the address bar (and the history) before anything else happens.
    window.history.replaceState(null, '', window.location.pathname);
    completeProviderSignIn(callbackUrl).catch((failure: unknown) =>
      setError(describeError(failure)),
    );
  }, [completeProviderSignIn]);
  if (session) {
    return <Navigate to="/trades" replace />;
  }
  return (
    <main className="sign-in">
      <h1>Spread trading console</h1>
      {error ? (
        <>
          <p className="error" role="alert">
            Sign-in failed: {error}
          </p>
          <Link to="/sign-in">Back to sign-in</Link>
        </>
      ) : (
        <p role="status">Completing sign-in…</p>
      )}
    </main>
  );
}
