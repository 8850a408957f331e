import type { Credential, Wallet } from '@sts/sdk';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { describeError } from '../api/api-error';
import { VENUES } from '../api/console-api';
import { fieldErrorsOf, type FieldErrors } from '../api/field-errors';
import { controlProps, FormField } from '../components/form-field';
import { useSession, useSignedIn } from '../session/session';
import { personalSign } from '../session/siwe';
import { DevelopmentWallet, walletAccounts } from '../session/wallet-provider';

const CREDENTIAL_FIELDS = ['wallet_addr', 'api_key', 'api_secret', 'passphrase'] as const;
const NO_ERRORS: FieldErrors = { fields: {}, general: [] };

/** Linked wallets and exchange credentials (metadata only: a secret is never shown). */
export function AccountPage() {
  const { api, wallet: primary } = useSignedIn();
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
                  <td>{credential.exchange}</td>
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

/** Links a further wallet: the gateway's challenge, signed by that wallet (EIP-191). */
function LinkWallet({
  linked,
  onLinked,
}: {
  linked: Wallet[];
  onLinked: (address: string) => void;
}) {
  const { api } = useSignedIn();
  const { wallet: signer, session } = useSession();
  // null until the user types: the field then offers the wallet's first account not linked yet.
  const [typed, setTyped] = useState<string | null>(null);
  const [accounts, setAccounts] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const isLinked = (account: string) =>
    linked.some((wallet) => wallet.address.toLowerCase() === account.toLowerCase());
  const offered = linked.length ? accounts.find((account) => !isLinked(account)) : undefined;
  const address = typed ?? offered ?? '';
  const setAddress = (value: string) => setTyped(value);

  useEffect(() => {
    const provider = signer();
    if (provider) {
      walletAccounts(provider).then(setAccounts, () => undefined);
    }
  }, [signer, linked]);

  const link = (event: FormEvent) => {
    event.preventDefault();
    const provider = signer();
    if (!provider) {
      setError('no wallet to sign with');
      return;
    }
    setBusy(true);
    setError(undefined);
    const target = address.trim();
    api
      .linkChallenge(target)
      .then(async (challenge) => {
        const signature = await personalSign(provider, target, challenge.message);
        await api.linkWallet(target, challenge.nonce, signature);
      })
      .then(
        () => {
          setBusy(false);
          setTyped(null);
          onLinked(target);
        },
        (failure: unknown) => {
          setBusy(false);
          setError(describeError(failure));
        },
      );
  };

  const hint = 'the wallet signs a challenge to prove it is yours';
  return (
    <form onSubmit={link} className="inline-form" noValidate>
      <h3>Link a wallet</h3>
      <FormField name="link_address" label="Wallet address" hint={hint} error={error}>
        <input
          {...controlProps('link_address', error, hint)}
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </FormField>
      <button type="submit" disabled={busy || !address.trim()}>
        Sign and link
      </button>
      {session?.walletKind === 'development' && (
        <button type="button" onClick={() => setAddress(new DevelopmentWallet().addAccount())}>
          New development account
        </button>
      )}
    </form>
  );
}

/** Adds (or rotates) a venue credential; the secret goes to the gateway and is never shown again. */
function AddCredential({
  wallets,
  onAdded,
}: {
  wallets: Wallet[];
  onAdded: (exchange: string) => void;
}) {
  const { api, wallet: primary } = useSignedIn();
  const empty = {
    exchange: 'hyperliquid',
    wallet_addr: '',
    api_key: '',
    api_secret: '',
    passphrase: '',
  };
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const walletAddr = form.wallet_addr || primary;

  const add = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    api
      .addCredential(form.exchange, {
        wallet_addr: walletAddr,
        api_key: form.api_key,
        api_secret: form.api_secret,
        ...(form.passphrase ? { passphrase: form.passphrase } : {}),
      })
      .then(
        () => {
          setBusy(false);
          setForm({ ...empty, exchange: form.exchange, wallet_addr: form.wallet_addr });
          onAdded(form.exchange);
        },
        (failure: unknown) => {
          setBusy(false);
          setErrors(fieldErrorsOf(failure, CREDENTIAL_FIELDS));
        },
      );
  };
  const field = (
    name: 'api_key' | 'api_secret' | 'passphrase',
    label: string,
    type: string,
    hint?: string,
  ) => (
    <FormField name={name} label={label} hint={hint} error={errors.fields[name]}>
      <input
        {...controlProps(name, errors.fields[name], hint)}
        type={type}
        value={form[name]}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setForm((current) => ({ ...current, [name]: event.target.value }))}
      />
    </FormField>
  );

  return (
    <form onSubmit={add} className="inline-form" noValidate>
      <h3>Add a credential</h3>
      {errors.general.map((text) => (
        <p key={text} className="error" role="alert">
          {text}
        </p>
      ))}
      <FormField name="credential_exchange" label="Venue">
        <select
          {...controlProps('credential_exchange', undefined)}
          value={form.exchange}
          onChange={(event) => setForm((current) => ({ ...current, exchange: event.target.value }))}
        >
          {VENUES.map((venue) => (
            <option key={venue} value={venue}>
              {venue}
            </option>
          ))}
        </select>
      </FormField>
      <FormField name="wallet_addr" label="Wallet" error={errors.fields['wallet_addr']}>
        <select
          {...controlProps('wallet_addr', errors.fields['wallet_addr'])}
          value={walletAddr}
          onChange={(event) =>
            setForm((current) => ({ ...current, wallet_addr: event.target.value }))
          }
        >
          {(wallets.length ? wallets.map((w) => w.address) : [primary]).map((address) => (
            <option key={address} value={address}>
              {address}
            </option>
          ))}
        </select>
      </FormField>
      {field(
        'api_key',
        'API key',
        'text',
        'the public part; only its last 4 characters are shown later',
      )}
      {field('api_secret', 'API secret', 'password', 'sealed by the service, never shown again')}
      {field('passphrase', 'Passphrase', 'password', 'only for venues that issue one')}
      <button type="submit" disabled={busy}>
        Add credential
      </button>
    </form>
  );
}
