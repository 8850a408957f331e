import type { Wallet } from '@sts/sdk';
import { useEffect, useState, type FormEvent } from 'react';
import { describeError } from '../api/api-error';
import { controlProps, FormField } from '../components/form-field';
import { useSession } from '../session/session';
import { personalSign } from '../session/siwe';
import { DevelopmentWallet, walletAccounts } from '../session/wallet-provider';

/**
 * Links a wallet: the gateway's challenge, signed by that wallet (EIP-191).
 * A further wallet on the Account page; the first (`first`) of an account
 * whose sign-in named none.
 */
export function LinkWallet({
  linked,
  onLinked,
  first = false,
}: {
  linked: Wallet[];
  onLinked: (address: string) => void;
  first?: boolean;
}) {
  const { wallet: signer, session, api } = useSession();
  // null until the user types: the field then offers the wallet's first account not linked yet.
  const [typed, setTyped] = useState<string | null>(null);
  const [accounts, setAccounts] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const isLinked = (account: string) =>
    linked.some((wallet) => wallet.address.toLowerCase() === account.toLowerCase());
  // Not before the linked wallets are read (the primary would be offered), unless there are none.
  const offered =
    linked.length || first ? accounts.find((account) => !isLinked(account)) : undefined;
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
        await api.linkWallet({ address: target, nonce: challenge.nonce, signature });
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
      {!first && <h3>Link a wallet</h3>}
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
