import type { FundingPayment } from '../../engine/funding-book';
import type { VenueEngine } from '../../engine/venue-engine';
import { ExtendedError, type ExtendedAccount } from './extended-accounts';
import { positionIdOf } from './extended-views';

/**
 * The most payments one answer holds, and the page when a request names no
 * `limit`: the "Get trades" section's 10,000, taken for this list too
 * (assumed: the funding section names no bound).
 */
export const FUNDING_PAGE_MAX = 10_000;

/** One funding payment as `GET /api/v1/user/funding/history` lists it. */
export interface ExtendedFundingPayment {
  id: number;
  accountId: number;
  market: string;
  positionId: number;
  side: 'LONG' | 'SHORT';
  /** The position's size (unsigned; `side` says which way). */
  size: string;
  /** `size` × `markPrice`. */
  value: string;
  markPrice: string;
  /** Signed collateral movement: positive received, negative paid. */
  fundingFee: string;
  /** The interval's rate (positive: longs pay shorts). */
  fundingRate: string;
  paidTime: number;
}

export interface FundingHistoryPage {
  data: ExtendedFundingPayment[];
  /** `cursor`: the id of the page's last payment, to pass back for the page after it. */
  pagination: { cursor?: number; count: number };
}

/**
 * `GET /api/v1/user/funding/history` (docs "Get funding payments":
 * `market` (repeated for several), `side` (`LONG`, `SHORT`), `fromTime`
 * (ms), `cursor`, `limit`; the answer's fields as ccxt 4.5.84 extended.js
 * fetchFundingHistory quotes the venue's example, `{id, accountId, market,
 * positionId, side, size, value, markPrice, fundingFee, fundingRate,
 * paidTime}`), paged as the docs' "Pagination" section pages every list:
 * "sorted in descending order by ID", `cursor` "the ID of the item after
 * which you want to retrieve the next result", `pagination {cursor, count}`
 * beside `data`. An empty page carries no cursor (assumed, as for trades).
 *
 * The time filter is `fromTime` (payments paid at or after it), as the docs
 * and the venue's third-party SDKs name it; ccxt sends its `since` as
 * `startTime`, which the docs do not name: the dialect ignores it as any
 * parameter it does not know (assumed; a client reads a window by paging
 * back until it passes the window's start, as it reads trades). Whether
 * `fromTime` is required is not said (one third-party SDK sends it always);
 * here it is optional.
 *
 * `fundingFee` is the collateral the payment moved, negative when the
 * account paid (not said on the page; ccxt takes it as its signed `amount`,
 * and third-party clients read it so: positive credits the account).
 * A query value that is not a whole number is refused 1133 (assumed, the
 * dialect's answer to other malformed parameters).
 */
export function fundingHistoryPage(
  venue: VenueEngine,
  account: ExtendedAccount,
  payments: readonly FundingPayment[],
  query: URLSearchParams,
): FundingHistoryPage {
  const markets = new Set(query.getAll('market'));
  const side = query.get('side')?.toUpperCase();
  const fromTime = whole(query, 'fromTime') ?? 0;
  const cursor = whole(query, 'cursor') ?? Infinity;
  const limit = pageLimit(query.get('limit'));
  const page = payments
    .map((payment) => fundingView(venue, account, payment))
    .filter(
      (view) =>
        view.id < cursor &&
        view.paidTime >= fromTime &&
        (markets.size === 0 || markets.has(view.market)) &&
        (side === undefined || side === view.side),
    )
    .sort((a, b) => b.id - a.id)
    .slice(0, limit);
  const last = page.at(-1);
  return {
    data: page,
    pagination: { ...(last ? { cursor: last.id } : {}), count: page.length },
  };
}

function fundingView(
  venue: VenueEngine,
  account: ExtendedAccount,
  payment: FundingPayment,
): ExtendedFundingPayment {
  const size = payment.size.abs();
  return {
    id: paymentNumber(payment.id),
    accountId: account.accountId,
    market: payment.symbol,
    positionId: positionIdOf(venue, account, payment.symbol),
    side: payment.size.gt(0) ? 'LONG' : 'SHORT',
    size: size.toFixed(),
    value: size.times(payment.markPrice).toFixed(),
    markPrice: payment.markPrice.toFixed(),
    fundingFee: payment.amount.toFixed(),
    fundingRate: payment.rate.toFixed(),
    paidTime: payment.timeMs,
  };
}

/** The engine's `<epoch>-f<seq>` as an id that grows with every payment (epoch × 10⁹ + seq). */
function paymentNumber(engineId: string): number {
  const [epoch, seq] = engineId.split('-f');
  return Number(epoch) * 1_000_000_000 + Number(seq);
}

function whole(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) {
    return undefined;
  }
  const value = Number(text);
  if (text === '' || !Number.isSafeInteger(value) || value < 0) {
    throw new ExtendedError(400, 1133, `Invalid ${name}.`);
  }
  return value;
}

/** A request's `limit`, within 1 and the maximum; absent or not a count, the maximum (assumed). */
function pageLimit(value: string | null): number {
  const limit = Number(value);
  return value !== null && Number.isInteger(limit) && limit >= 1
    ? Math.min(limit, FUNDING_PAGE_MAX)
    : FUNDING_PAGE_MAX;
}
