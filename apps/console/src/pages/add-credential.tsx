import type { Wallet } from '@sts/sdk';
import { useState, type FormEvent } from 'react';
import { VENUES } from '../api/console-api';
import { fieldErrorsOf, type FieldErrors } from '../api/field-errors';
import { controlProps, FormField } from '../components/form-field';
import { useSignedIn } from '../session/session';
import { venueChoiceLabel } from '../venues/venue-modes';
import { useVenues } from '../venues/venues';

const CREDENTIAL_FIELDS = ['wallet_addr', 'api_key', 'api_secret', 'passphrase'] as const;
const NO_ERRORS: FieldErrors = { fields: {}, general: [] };

/** Adds (or rotates) a venue credential; the secret goes to the gateway and is never shown again. */
export function AddCredential({
  wallets,
  onAdded,
}: {
  wallets: Wallet[];
  onAdded: (exchange: string) => void;
}) {
  const { api, wallet: primary } = useSignedIn();
  const { book } = useVenues();
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
              {venueChoiceLabel(venue, book?.get(venue))}
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
