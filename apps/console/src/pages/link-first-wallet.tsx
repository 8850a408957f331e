import { useSession } from '../session/session';
import { LinkWallet } from './link-wallet';

/**
 * What a signed-in account without a wallet sees instead of any page: an
 * OpenID Connect provider names the user, not a wallet, and trades, venue
 * credentials and positions all belong to a wallet. The first wallet linked
 * (the gateway's challenge, signed by it) becomes the account's primary, and
 * the page the user was going to opens.
 */
export function LinkFirstWalletPage() {
  const { session, config, walletLinked, chooseWallet } = useSession();
  const injected = Boolean(window.ethereum);
  const development = session?.walletKind === 'development';
  return (
    <main className="account">
      <h1>Link a wallet</h1>
      <p>
        You are signed in as <code>{session?.userId}</code>. Your trades, venue credentials and
        positions belong to wallets linked to your account, and it has none yet: link one by signing
        the challenge below with it. Nothing is sent on chain.
      </p>
      {!injected && !development && !config.paper && (
        <p>
          No wallet found in this browser: install one (for example a browser extension), then
          reload this page.
        </p>
      )}
      {!injected && !development && config.paper && (
        <p>
          No wallet in this browser. The fleet trades on paper venues, so you may use a development
          wallet: a key kept in this browser&apos;s storage.{' '}
          <button type="button" onClick={() => chooseWallet('development')}>
            Use development wallet
          </button>
        </p>
      )}
      <section aria-label="Link a wallet">
        <LinkWallet linked={[]} first onLinked={walletLinked} />
      </section>
    </main>
  );
}
