import Big from 'big.js';
import type { FundingPayment } from '../../engine/funding-book';
import { ParadexError } from './paradex-auth';
import { paradexPage, queryInteger, type ParadexPage } from './paradex-pages';

/** One funding payment as `GET /v1/funding/payments` lists it (`responses.FundingPayment`). */
export interface ParadexFundingPayment {
  /** The StarkNet account that paid or received it. */
  account: string;
  created_at: number;
  /** The fill that realised it; empty: the simulator settles at the interval's end, no fill. */
  fill_id: string;
  id: string;
  /** The market's funding index as of the payment (USDC per unit of the base). */
  index: string;
  market: string;
  /** Signed, in USDC: negative paid, positive received. */
  payment: string;
}

/**
 * `GET /v1/funding/payments` (https://docs.paradex.trade/api/prod/account/get-funding;
 * paradex-py `api_client.fetch_funding_payments`, `api/generated/responses.py`
 * `FundingPayment`; ccxt 4.5.84 `fetchFundingHistory`): the account's
 * payments of one `market` (required), `start_at` / `end_at` (the payment's
 * time, ms, both inclusive), a page at a time (`page_size`, `cursor`;
 * `paradex-pages.ts`). Newest first, as the dialect's other lists (the page
 * does not say; ccxt sorts what it reads).
 *
 * `payment` is what the account's USDC balance moved, negative when it paid:
 * the docs' funding mechanism has a long lose when the funding index rises
 * ("Funding Loss"), and ccxt takes `payment` as its signed `amount`. The
 * `index` is the page's "value of the funding index at the time of
 * payment": the venue's index sums the funding premium (USDC a unit of the
 * base pays) since the market's launch; here it is the sum of mark × rate
 * over the account's own payments in the market, so each payment is
 * −size × the index's step since the one before (its origin is the
 * simulator's, only its steps mean anything). The venue realises funding
 * when a fill changes the position (`fill_id`); the simulator settles at the
 * end of each funding interval, so `fill_id` is empty (assumed: the page
 * says only "(if any)").
 */
export function fundingPayments(
  payments: readonly FundingPayment[],
  account: string,
  query: URLSearchParams,
): ParadexPage<ParadexFundingPayment> {
  const market = query.get('market');
  if (market === null || market === '') {
    throw new ParadexError(400, 'VALIDATION_ERROR', 'market is required');
  }
  const start = queryInteger(query, 'start_at', 0);
  const end = queryInteger(query, 'end_at', Number.MAX_SAFE_INTEGER);
  let index = new Big(0);
  const shown: ParadexFundingPayment[] = [];
  for (const payment of payments) {
    if (payment.symbol !== market) {
      continue;
    }
    index = index.plus(payment.markPrice.times(payment.rate));
    if (payment.timeMs >= start && payment.timeMs <= end) {
      shown.push(fundingView(payment, account, index));
    }
  }
  return paradexPage(shown.reverse(), query);
}

function fundingView(payment: FundingPayment, account: string, index: Big): ParadexFundingPayment {
  return {
    account,
    created_at: payment.timeMs,
    fill_id: '',
    id: paymentNumber(payment.id),
    index: index.toFixed(),
    market: payment.symbol,
    payment: payment.amount.toFixed(),
  };
}

/** The engine's `<epoch>-f<seq>` as a number's digits (Paradex's ids are numeric strings). */
function paymentNumber(engineId: string): string {
  const [epoch, seq] = engineId.split('-f');
  return String(BigInt(epoch!) * 1_000_000_000n + BigInt(seq!));
}
