import type { MarketSpread, Trade } from '@sts/sdk';
import { useEffect, useState } from 'react';
import { useSignedIn } from '../../session/session';

const READ_EVERY_MS = 1_000;
/** A quarter of an hour of readings: the chart keeps the latest. */
const KEPT = 900;

/**
 * Both venues' touch over time for a trade: the spread endpoint read every
 * second while the trade runs (the API keeps no history of books, so the
 * chart has what this page saw). One request at a time.
 */
export function useBookHistory(trade: Trade, running: boolean): MarketSpread[] {
  const { api } = useSignedIn();
  const [readings, setReadings] = useState<MarketSpread[]>([]);
  const { market, long_exchange, short_exchange, maker_leg, spread_type } = trade;

  useEffect(() => {
    if (!running) {
      return;
    }
    let live = true;
    let timer = 0;
    const read = () => {
      api
        .spread(market, { long_exchange, short_exchange, maker_leg, spread_type })
        .then(
          (reading) => live && setReadings((seen) => [...seen.slice(1 - KEPT), reading]),
          // A missed reading leaves a gap in the lines; the next second tries again.
          () => undefined,
        )
        .finally(() => {
          if (live) {
            timer = window.setTimeout(read, READ_EVERY_MS);
          }
        });
    };
    read();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [api, running, market, long_exchange, short_exchange, maker_leg, spread_type]);

  return readings;
}
