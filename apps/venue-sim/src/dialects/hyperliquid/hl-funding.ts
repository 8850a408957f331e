import type { FundingPayment } from '../../engine/funding-book';
import type { VenueEngine } from '../../engine/venue-engine';

/**
 * "Responses for time-range endpoints return at most 500 elements or distinct
 * blocks of data. To query larger ranges, use the last returned timestamp as
 * the next startTime for pagination" (hyperliquid-docs, API > Info endpoint,
 * Pagination).
 */
export const FUNDING_PAGE = 500;

/**
 * A funding's `hash`: the venue's funding entries carry no transaction, and a
 * recorded answer (ccxt 4.5.84 `hyperliquid.js` fetchFundingHistory) shows
 * the zero hash.
 */
const NO_HASH = `0x${'0'.repeat(64)}`;

/** One entry of `userFunding`, as the docs' and ccxt's recorded answers show it. */
export interface HlUserFunding {
  time: number;
  hash: string;
  delta: {
    type: 'funding';
    coin: string;
    usdc: string;
    szi: string;
    fundingRate: string;
    nSamples: null;
  };
}

/**
 * `userFunding` (hyperliquid-docs, API > Info endpoint > Perpetuals, "Retrieve
 * a user's funding history or non-funding ledger updates"): `startTime`
 * (ms, inclusive, required) and `endTime` (ms, inclusive, defaults to now);
 * the user's funding payments oldest first, at most 500. `usdc` is the
 * signed change of the user's USDC (negative paid), `szi` the signed
 * position then, `fundingRate` the hour's rate, all as the engine recorded
 * them. It weighs 20 of H1 (hl-rate-limits.ts: "all other documented info
 * requests"); the extra weight per 20 items it returns is not modelled (no
 * number published).
 */
export function userFunding(
  venue: VenueEngine,
  accountId: string,
  startMs: number,
  endMs: number,
): HlUserFunding[] {
  return venue.funding
    .paymentsOf(accountId, startMs)
    .filter((payment) => payment.timeMs <= endMs)
    .sort((a, b) => a.timeMs - b.timeMs)
    .slice(0, FUNDING_PAGE)
    .map(fundingEntry);
}

/**
 * The `userFunding` read of an `/info` body, or undefined when its times are
 * not the venue's types (the 422); a user the venue never saw has none.
 */
export function userFundingRead(
  request: Record<string, unknown>,
  accountId: string,
): ((venue: VenueEngine, funded: boolean) => HlUserFunding[]) | undefined {
  const start = request['startTime'];
  const end = request['endTime'] ?? Date.now();
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    return undefined;
  }
  return (venue, funded) =>
    funded ? userFunding(venue, accountId, start as number, end as number) : [];
}

function fundingEntry(payment: FundingPayment): HlUserFunding {
  return {
    time: payment.timeMs,
    hash: NO_HASH,
    delta: {
      type: 'funding',
      coin: payment.symbol,
      usdc: payment.amount.toFixed(),
      szi: payment.size.toFixed(),
      fundingRate: payment.rate.toFixed(),
      nSamples: null,
    },
  };
}
