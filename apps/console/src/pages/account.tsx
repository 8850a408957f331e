import type { Credential, Wallet } from '@sts/sdk';
import { useCallback, useEffect, useState } from 'react';
import { describeError } from '../api/api-error';
import { VenueName } from '../components/venue-name';
import { useSignedIn } from '../session/session';
import { useVenues } from '../venues/venues';
import { AddCredential } from './add-credential';
import { LinkWallet } from './link-wallet';

/** Linked wallets and exchange credentials (metadata only: a secret is never shown). */
export function AccountPage() {
  const { api, wallet: primary } = useSignedIn();
  const { book } = useVenues();
  const [wallets, setWallets] = useState<Wallet[]>([]);
  const [credentials, setCredentials] = useState<Credential[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const reload = useCallback(() => {
    Promise.all([api.wallets(), api.credentials()]).then(
      ([linked, stored]) => {
        setWallets(linked);
        setCredentials(stored);
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  }, [api]);
  useEffect(reload, [reload]);

  const act = (work: Promise<unknown>, done: string) => {
    setError(null);
    setMessage(null);
    work.then(
      () => {
        setMessage(done);
        reload();
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };

  return (
    <main className="account">
      <h1>Account</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {message && <p role="status">{message}</p>}
      <section aria-labelledby="wallets-title">
        <h2 id="wallets-title">Wallets</h2>
        <table data-testid="wallets-table">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Linked</th>
              <th scope="col">Verified</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {wallets.map((wallet) => {
              const isPrimary = wallet.address.toLowerCase() === primary.toLowerCase();
              return (
                <tr key={wallet.address}>
                  <td>
                    <code>{wallet.address}</code>{' '}
                    {isPrimary && <span className="tag">primary</span>}
                  </td>
                  <td>{new Date(wallet.linked_at).toLocaleString()}</td>
                  <td>{wallet.verified ? 'yes' : 'no'}</td>
                  <td>
                    {!isPrimary && (
                      <button
                        type="button"
                        aria-label={`Unlink ${wallet.address}`}
                        onClick={() =>
                          act(api.unlinkWallet(wallet.address), `Unlinked ${wallet.address}.`)
                        }
                      >
                        Unlink
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <LinkWallet
          linked={wallets}
          onLinked={(address) => act(Promise.resolve(), `Linked ${address}.`)}
        />
      </section>
      <section aria-labelledby="credentials-title">
        <h2 id="credentials-title">Exchange credentials</h2>
        {credentials.length === 0 ? (
          <p className="muted">No credentials yet: a trade needs one on each of its venues.</p>
        ) : (
          <table data-testid="credentials-table">
            <thead>
              <tr>
                <th scope="col">Venue</th>
                <th scope="col">Wallet</th>
                <th scope="col">Key</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {credentials.map((credential) => (
                <tr key={`${credential.exchange}:${credential.wallet_addr}`}>
                  <td>
                    <VenueName
                      exchange={credential.exchange}
                      mode={book?.get(credential.exchange)?.mode}
                    />
                  </td>
                  <td>
                    <code>{credential.wallet_addr}</code>
                  </td>
                  <td>
                    <code>{credential.key_preview}</code>
                  </td>
                  <td>{new Date(credential.added_at).toLocaleString()}</td>
                  <td>
                    {credential.last_used
                      ? new Date(credential.last_used).toLocaleString()
                      : 'never'}
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Remove the ${credential.exchange} credential of ${credential.wallet_addr}`}
                      onClick={() =>
                        act(
                          api.removeCredential(credential.exchange, credential.wallet_addr),
                          `Removed the ${credential.exchange} credential.`,
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <AddCredential
          wallets={wallets}
          onAdded={(exchange) => act(Promise.resolve(), `Added the ${exchange} credential.`)}
        />
      </section>
    </main>
  );
}
