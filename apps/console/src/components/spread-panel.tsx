import { useEffect, useState } from 'react';
import { describeError } from '../api/api-error';
import type { MarketSpread } from '@sts/sdk';
import { spreadQueryOf, type SpreadQuery } from '../api/console-api';
import { useSignedIn } from '../session/session';
import { useVenues } from '../venues/venues';
import type { VenueBook } from '../venues/venue-modes';
import { VenueName } from './venue-name';

const REFRESH_MS = 1_000;

/**
 * The market as a worker would see it now, on both chosen venues: best bid and
 * ask of each, the spread in the chosen unit, and whether the condition holds.
 */
export function SpreadPanel({ market, query }: { market: string | null; query: SpreadQuery }) {
  const { api } = useSignedIn();
  const { book } = useVenues();
  const key = JSON.stringify([market, query]);
  // The last answer, for the question it answered: a changed question shows nothing stale.
  const [reading, setReading] = useState<{
    key: string;
    quote?: MarketSpread;
    error?: string;
  } | null>(null);
  const quote = reading?.key === key ? reading.quote : undefined;
  const error = reading?.key === key ? reading.error : undefined;

  useEffect(() => {
    const [currentMarket, currentQuery] = JSON.parse(key) as [string | null, SpreadQuery];
    if (!currentMarket || currentQuery.long_exchange === currentQuery.short_exchange) {
      return;
    }
    let live = true;
    let timer = 0;
    // One request at a time: the next is asked a second after the last answer.
    const read = () => {
      api
        .spread(currentMarket, spreadQueryOf(currentQuery))
        .then(
          (fresh) => {
            if (live) {
              setReading({ key, quote: fresh });
            }
          },
          (failure: unknown) => {
            if (live) {
              setReading({ key, error: describeError(failure) });
            }
          },
        )
        .finally(() => {
          if (live) {
            timer = window.setTimeout(read, REFRESH_MS);
          }
        });
    };
    read();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [api, key]);

  return (
    <section
      className="spread-panel"
      aria-labelledby="spread-panel-title"
      data-testid="spread-panel"
    >
      <h2 id="spread-panel-title">Market now</h2>
      {!market && <p className="muted">Choose a market listed on both venues.</p>}
      {error && (
        <p className="error" role="status">
          {error}
        </p>
      )}
      {quote && (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Venue</th>
                <th scope="col">Bid</th>
                <th scope="col">Ask</th>
              </tr>
            </thead>
            <tbody>
              <LegRow leg="long" exchange={quote.long_exchange} touch={quote.long} book={book} />
              <LegRow leg="short" exchange={quote.short_exchange} touch={quote.short} book={book} />
            </tbody>
          </table>
          <dl>
            <dt>Spread ({quote.spread_type})</dt>
            <dd data-testid="spread">{quote.spread}</dd>
            <dt>Condition holds now</dt>
            <dd data-testid="condition-met">
              {quote.condition_met === null ? 'enter a target' : quote.condition_met ? 'yes' : 'no'}
            </dd>
            <dt>As of</dt>
            <dd>{new Date(quote.at).toLocaleTimeString()}</dd>
          </dl>
        </>
      )}
    </section>
  );
}

/** One leg's venue (with its PAPER or LIVE badge) and its best bid and ask. */
function LegRow(props: {
  leg: 'long' | 'short';
  exchange: string;
  touch: { bid: string; ask: string };
  book: VenueBook | null;
}) {
  const { leg, exchange, touch, book } = props;
  return (
    <tr>
      <th scope="row">
        {leg}: <VenueName exchange={exchange} mode={book?.get(exchange)?.mode} />
      </th>
      <td data-testid={`${leg}-bid`}>{touch.bid}</td>
      <td data-testid={`${leg}-ask`}>{touch.ask}</td>
    </tr>
  );
}
