import type { FundingPayment } from '../../engine/funding-book';
import type { VenueEngine } from '../../engine/venue-engine';
import { LighterError } from './lighter-errors';
import { marketAt, marketIndexOf } from './lighter-markets';

/** `market_id` meaning every market (the SDK's default for this read). */
const ALL_MARKETS = 255;
/** The most a page holds, as the venue's other account lists (assumed: the reference names none). */
const MAX_LIMIT = 100;

/** One payment as `GET /api/v1/positionFunding` lists it (lighter-python `PositionFunding`). */
export interface LighterPositionFunding {
  /** When it was paid, Unix seconds. */
  timestamp: number;
  market_id: number;
  funding_id: number;
  /** Signed USDC: what the account's collateral moved (negative paid). */
  change: string;
  rate: string;
  /** The position's size, unsigned; `position_side` says which way. */
  position_size: string;
  position_side: 'long' | 'short';
}

/**
 * `GET /api/v1/positionFunding` (lighter-python `AccountApi.position_funding`,
 * `models/position_fundings.py`, `models/position_funding.py`; ccxt 4.5.84
 * lighter.js has it as the implicit `privateGetPositionFunding`, cost 1):
 * `account_index` and `limit` required, `market_id` (255, the default: every
 * market), `side` (`long`, `short`, `all`, the default), `cursor` (an
 * answer's `next_cursor`); the answer `{position_fundings, next_cursor}`,
 * the cursor only when more remain. No time filter is named: a reader of a
 * window pages back until it passes the window's start.
 *
 * Newest first (assumed, as the venue's inactive orders). The cursor is
 * opaque on the venue; here it is the page's last `funding_id`, the next
 * page the payments before it. `limit` from 1 to 100 (the SDK's model names
 * no bound; the venue's other account lists stop at 100), else refused.
 * `timestamp` in seconds: the reference gives no unit, and the clients that
 * read this endpoint take it as seconds (assumed). `change` is the
 * collateral the payment moved, negative when the account paid, as those
 * clients sum it into the account's funding.
 */
export function positionFundings(
  venue: VenueEngine,
  payments: readonly FundingPayment[],
  query: URLSearchParams,
): { position_fundings: LighterPositionFunding[]; next_cursor?: string } {
  const limit = Number(query.get('limit'));
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new LighterError(400, 20001, `limit must be between 1 and ${MAX_LIMIT}`);
  }
  const marketId = Number(query.get('market_id') ?? ALL_MARKETS);
  if (marketId !== ALL_MARKETS && !marketAt(venue, marketId)) {
    throw new LighterError(400, 21602, 'invalid market index');
  }
  const side = query.get('side') ?? 'all';
  if (side !== 'all' && side !== 'long' && side !== 'short') {
    throw new LighterError(400, 20001, 'side must be long, short or all');
  }
  const cursor = cursorOf(query.get('cursor'));
  const matching = payments
    .map((payment) => fundingView(venue, payment))
    .filter(
      (view) =>
        view.funding_id < cursor &&
        (marketId === ALL_MARKETS || view.market_id === marketId) &&
        (side === 'all' || view.position_side === side),
    )
    .sort((a, b) => b.funding_id - a.funding_id);
  const page = matching.slice(0, limit);
  return {
    position_fundings: page,
    ...(matching.length > limit ? { next_cursor: String(page.at(-1)!.funding_id) } : {}),
  };
}

function fundingView(venue: VenueEngine, payment: FundingPayment): LighterPositionFunding {
  return {
    timestamp: Math.floor(payment.timeMs / 1000),
    market_id: marketIndexOf(venue, payment.symbol),
    funding_id: paymentNumber(payment.id),
    change: payment.amount.toFixed(),
    rate: payment.rate.toFixed(),
    position_size: payment.size.abs().toFixed(),
    position_side: payment.size.gt(0) ? 'long' : 'short',
  };
}

/** The engine's `<epoch>-f<seq>` as an id that grows with every payment (epoch × 10⁹ + seq). */
function paymentNumber(engineId: string): number {
  const [epoch, seq] = engineId.split('-f');
  return Number(epoch) * 1_000_000_000 + Number(seq);
}

function cursorOf(text: string | null): number {
  if (text === null || text === '') {
    return Infinity;
  }
  const cursor = Number(text);
  if (!Number.isSafeInteger(cursor) || cursor < 0) {
    throw new LighterError(400, 20001, 'invalid cursor');
  }
  return cursor;
}
