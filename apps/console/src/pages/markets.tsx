import type { Market } from '@sts/sdk';
import { Fragment, useEffect, useMemo, useState } from 'react';
import { describeError } from '../api/api-error';
import { VENUES } from '../api/console-api';
import { VenueName } from '../components/venue-name';
import { useSession } from '../session/session';
import { useVenues } from '../venues/venues';
import {
  asPercent,
  fundingDifferences,
  sortDifferences,
  type SortKey,
} from './funding-differences';

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'market', label: 'Market' },
  { key: 'longExchange', label: 'Long (lower funding)' },
  { key: 'shortExchange', label: 'Short (higher funding)' },
  { key: 'difference', label: 'Difference (annualised)' },
];

/** Every canonical market on any venue, and the funding differences between venues. */
export function MarketsPage() {
  const { api } = useSession();
  const { book } = useVenues();
  const modeOf = (exchange: string) => book?.get(exchange)?.mode;
  const [markets, setMarkets] = useState<Market[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; direction: 'ascending' | 'descending' }>({
    key: 'difference',
    direction: 'descending',
  });

  useEffect(() => {
    api.markets(VENUES, 1).then(
      (list) => setMarkets([...list].sort((a, b) => a.canonical.localeCompare(b.canonical))),
      (failure: unknown) => setError(describeError(failure)),
    );
  }, [api]);

  const differences = useMemo(
    () => sortDifferences(fundingDifferences(markets ?? []), sort.key, sort.direction),
    [markets, sort],
  );
  const sortBy = (key: SortKey) =>
    setSort((current) => ({
      key,
      direction:
        current.key === key && current.direction === 'descending' ? 'ascending' : 'descending',
    }));

  return (
    <main className="markets">
      <h1>Markets</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {markets === null && !error && <p role="status">Loading…</p>}
      {markets && (
        <>
          <section aria-labelledby="funding-title">
            <h2 id="funding-title">Funding differences between venues</h2>
            <p className="muted">
              Each pair of venues listing a market: long where funding is lower, short where it is
              higher.
            </p>
            <table data-testid="funding-differences">
              <thead>
                <tr>
                  {COLUMNS.map((column) => (
                    <th
                      key={column.key}
                      scope="col"
                      aria-sort={sort.key === column.key ? sort.direction : 'none'}
                    >
                      <button type="button" className="sort" onClick={() => sortBy(column.key)}>
                        {column.label}
                        <span aria-hidden="true">
                          {sort.key === column.key
                            ? sort.direction === 'ascending'
                              ? ' ▲'
                              : ' ▼'
                            : ''}
                        </span>
                      </button>
                    </th>
                  ))}
                  <th scope="col">Long funding</th>
                  <th scope="col">Short funding</th>
                </tr>
              </thead>
              <tbody>
                {differences.map((row) => (
                  <tr key={`${row.market}:${row.longExchange}:${row.shortExchange}`}>
                    <td>{row.market}</td>
                    <td>
                      <VenueName exchange={row.longExchange} mode={modeOf(row.longExchange)} />
                    </td>
                    <td>
                      <VenueName exchange={row.shortExchange} mode={modeOf(row.shortExchange)} />
                    </td>
                    <td>{asPercent(row.difference)}</td>
                    <td>{asPercent(row.longAnnualised)}</td>
                    <td>{asPercent(row.shortAnnualised)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="markets-title">
            <h2 id="markets-title">Markets by venue</h2>
            <table data-testid="markets-table">
              <thead>
                <tr>
                  <th scope="col">Market</th>
                  <th scope="col">Venue</th>
                  <th scope="col">Symbol</th>
                  <th scope="col">Tick</th>
                  <th scope="col">Lot</th>
                  <th scope="col">Min size</th>
                  <th scope="col">Min notional</th>
                  <th scope="col">Max leverage</th>
                  <th scope="col">Funding rate</th>
                  <th scope="col">Annualised</th>
                  <th scope="col">Interval</th>
                </tr>
              </thead>
              <tbody>
                {markets.map((market) => {
                  const venues = Object.entries(market.exchanges).sort(([a], [b]) =>
                    a.localeCompare(b),
                  );
                  return (
                    <Fragment key={market.canonical}>
                      {venues.map(([exchange, entry], index) => (
                        <tr key={exchange} className={index === 0 ? 'group-start' : undefined}>
                          {index === 0 && (
                            <th scope="rowgroup" rowSpan={venues.length}>
                              {market.canonical}
                            </th>
                          )}
                          <td>
                            <VenueName exchange={exchange} mode={modeOf(exchange)} />
                          </td>
                          <td>{entry.symbol}</td>
                          <td>{entry.tick_size}</td>
                          <td>{entry.lot_size}</td>
                          <td>{entry.min_size}</td>
                          <td>{entry.min_notional ?? '—'}</td>
                          <td>{entry.max_leverage ?? '—'}</td>
                          <td>{entry.live_funding_rate ?? '—'}</td>
                          <td>{asPercent(entry.live_funding_annualised)}</td>
                          <td>
                            {entry.funding_interval_hours === undefined
                              ? '—'
                              : `${entry.funding_interval_hours} h`}
                          </td>
                        </tr>
                      ))}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </section>
        </>
      )}
    </main>
  );
}
