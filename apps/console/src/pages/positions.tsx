import type { AccountBalance, Positions } from '@sts/sdk';
import { usePolledRead } from '../api/use-polled-read';
import { VenueName } from '../components/venue-name';
import { useSession } from '../session/session';
import { useVenues } from '../venues/venues';

type MarketPosition = Positions['positions'][number];
type VenuePosition = MarketPosition['venues'][number];

/** How often the page reads again; the gateway answers each account from its venue at most every 2 s. */
const REFRESH_MS = 5_000;

/**
 * Each venue account's margin (balances and equity), then net exposure per
 * market and wallet, each venue's side beside what the service's fills
 * imply, and a flag where the venue holds what the fills do not explain (a
 * position made outside the service, a missed fill).
 */
export function PositionsPage() {
  const { api } = useSession();
  const { value: positions, error } = usePolledRead(() => api.positions(), REFRESH_MS);

  const unreadable = positions?.accounts.filter((account) => account.error !== null) ?? [];
  return (
    <main className="positions">
      <h1>Positions</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <BalancesSection />
      {positions === null && !error && <p role="status">Loading…</p>}
      {positions && positions.positions.length === 0 && <p>No open positions.</p>}
      {positions?.positions.map((market) => (
        <MarketPositionCard key={`${market.wallet} ${market.market}`} market={market} />
      ))}
      {unreadable.length > 0 && (
        <section aria-labelledby="unreadable-title">
          <h2 id="unreadable-title">Venues that could not be read</h2>
          <ul>
            {unreadable.map((account) => (
              <li key={`${account.wallet} ${account.exchange}`} data-testid="unreadable-account">
                {account.exchange} <code>{account.wallet}</code>: {account.error}
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

function MarketPositionCard({ market }: { market: MarketPosition }) {
  const { book } = useVenues();
  const title = `${market.market} · ${market.wallet.slice(0, 6)}…${market.wallet.slice(-4)}`;
  return (
    <section aria-label={title} data-testid="market-position">
      <h2>
        {title}
        {market.unexplained && (
          <>
            {' '}
            <span className="error" data-testid="unexplained-flag">
              ⚠ unexplained
            </span>
          </>
        )}
      </h2>
      <p>
        Net exposure: <strong>{market.net_venue_position ?? 'unknown'}</strong> (fills imply{' '}
        {market.net_implied_position})
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Venue</th>
            <th scope="col">Side</th>
            <th scope="col">Venue position</th>
            <th scope="col">Fills imply</th>
            <th scope="col">Difference</th>
            <th scope="col">As of</th>
          </tr>
        </thead>
        <tbody>
          {market.venues.map((venue) => (
            <VenueRow key={venue.exchange} venue={venue} mode={book?.get(venue.exchange)?.mode} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function VenueRow({ venue, mode }: { venue: VenuePosition; mode: 'paper' | 'live' | undefined }) {
  return (
    <tr data-testid="venue-position" data-exchange={venue.exchange}>
      <th scope="row">
        <VenueName exchange={venue.exchange} mode={mode} />
      </th>
      {venue.error === null ? (
        <>
          <td>{venue.side}</td>
          <td>{venue.venue_position}</td>
          <td>{venue.implied_position}</td>
          <td>
            {venue.unexplained ? <strong className="error">{venue.difference} ⚠</strong> : '0'}
          </td>
        </>
      ) : (
        <>
          <td colSpan={2} className="error">
            {venue.error}
          </td>
          <td>{venue.implied_position}</td>
          <td>unknown</td>
        </>
      )}
      <td>
        <time dateTime={venue.as_of}>{new Date(venue.as_of).toLocaleTimeString()}</time>
      </td>
    </tr>
  );
}

/** GET /balances, read on the page's own interval: a venue read failing here leaves the positions shown. */
function BalancesSection() {
  const { api } = useSession();
  const { value: balances, error } = usePolledRead(() => api.balances(), REFRESH_MS);

  return (
    <section aria-labelledby="balances-title">
      <h2 id="balances-title">Balances</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {balances && balances.accounts.length === 0 && <p>No venue accounts linked.</p>}
      {balances && balances.accounts.length > 0 && (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Venue</th>
                <th scope="col">Wallet</th>
                <th scope="col">Asset</th>
                <th scope="col">Balance</th>
                <th scope="col">Unrealised PnL</th>
                <th scope="col">Equity</th>
                <th scope="col">Available</th>
                <th scope="col">Margin used</th>
                <th scope="col">As of</th>
              </tr>
            </thead>
            <tbody>
              {balances.accounts.map((entry) => (
                <BalanceRow
                  key={`${entry.wallet} ${entry.exchange} ${entry.asset}`}
                  entry={entry}
                />
              ))}
            </tbody>
          </table>
          <p data-testid="balance-totals">
            Total equity <strong>{balances.totals.equity_usd} USD</strong>, available margin{' '}
            {balances.totals.available_margin_usd} USD (USD stablecoins counted 1:1)
            {!balances.totals.complete && '; the rows marked ⚠ are not in these totals'}
          </p>
        </>
      )}
    </section>
  );
}

function BalanceRow({ entry }: { entry: AccountBalance }) {
  return (
    <tr data-testid="account-balance" data-exchange={entry.exchange}>
      <th scope="row">
        <VenueName exchange={entry.exchange} mode={entry.mode} />
      </th>
      <td>
        <code>{`${entry.wallet.slice(0, 6)}…${entry.wallet.slice(-4)}`}</code>
      </td>
      {entry.error === null ? (
        <>
          <td>
            {entry.asset}
            {!entry.in_totals && <span title="not a USD stablecoin: not in the totals"> ⚠</span>}
          </td>
          <td>{entry.balance}</td>
          <td>{entry.unrealised_pnl}</td>
          <td>{entry.equity}</td>
          <td>{entry.available_margin}</td>
          <td>{entry.margin_used ?? 'unknown'}</td>
        </>
      ) : (
        <td colSpan={6} className="error">
          ⚠ {entry.error}
        </td>
      )}
      <td>
        <time dateTime={entry.as_of}>{new Date(entry.as_of).toLocaleTimeString()}</time>
      </td>
    </tr>
  );
}
