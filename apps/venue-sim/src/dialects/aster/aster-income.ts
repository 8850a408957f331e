import type { FundingPayment } from '../../engine/funding-book';
import type { VenueEngine } from '../../engine/venue-engine';
import { AsterError } from './aster-errors';
import type { AsterMarketData } from './aster-market-data';
import { integer } from './aster-orders';

const WEEK_MS = 7 * 86_400_000;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;
/** The income types the v3 document lists for `incomeType`. */
const INCOME_TYPES = new Set([
  'TRANSFER',
  'WELCOME_BONUS',
  'REALIZED_PNL',
  'FUNDING_FEE',
  'COMMISSION',
  'INSURANCE_CLEAR',
  'MARKET_MERCHANT_RETURN_REWARD',
]);
/** A funding payment's engine id (`<epoch>-f<seq>`) numbered as the dialects number ids (engine-ids.ts). */
const EPOCH_SPAN = 1_000_000_000;

/** One entry of `GET /fapi/v3/income` as the v3 document's example shows it. */
export interface AsterIncome {
  symbol: string;
  incomeType: string;
  income: string;
  asset: string;
  info: string;
  time: number;
  tranId: string;
  tradeId: string;
}

/**
 * `GET /fapi/v3/income` (USER_DATA, weight 30), asterdex/api-docs
 * `V3(Recommended)/EN/aster-finance-futures-api-v3.md`, "Get Income
 * History": `symbol`, `incomeType`, `startTime` and `endTime` (ms, both
 * inclusive), `limit` ("Default 100; max 1000"); "If neither startTime nor
 * endTime is sent, the recent 7-day data will be returned"; "If incomeType
 * is not sent, all kinds of flow will be returned".
 *
 * The simulator records one kind of flow, the engine's funding settlements
 * (`FUNDING_FEE`, `income` positive received as Binance USDⓈ-M's reading
 * says: "正数代表流入，负数代表流出"); any other listed type answers none, an
 * unlisted one is -1130. Oldest first. Where the document is silent, as the
 * dialect's `userTrades` reads Binance: with `endTime` alone the window is
 * the 7 days before it, a limit above the maximum is the maximum, and a
 * window without an explicit `startTime` answers its latest `limit`
 * entries, one with it the earliest (the paging clients rely on:
 * startTime = the last time seen).
 */
export function incomeHistory(
  venue: VenueEngine,
  markets: AsterMarketData,
  accountId: string,
  params: Record<string, string>,
  nowMs: number,
): AsterIncome[] {
  const symbol = params['symbol'];
  if (symbol !== undefined && symbol !== '') {
    markets.market(symbol);
  }
  const incomeType = params['incomeType'];
  if (incomeType !== undefined && incomeType !== '' && !INCOME_TYPES.has(incomeType)) {
    throw new AsterError('invalidParameter', ['incomeType']);
  }
  const limit = Math.min(integer(params, 'limit') ?? DEFAULT_LIMIT, MAX_LIMIT);
  if (limit < 1) {
    throw new AsterError('invalidParameter', ['limit']);
  }
  const endTime = integer(params, 'endTime') ?? nowMs;
  const explicitStart = integer(params, 'startTime');
  const startTime = explicitStart ?? endTime - WEEK_MS;
  if (incomeType !== undefined && incomeType !== '' && incomeType !== 'FUNDING_FEE') {
    return [];
  }
  const entries = venue.funding
    .paymentsOf(accountId, startTime)
    .filter((payment) => payment.timeMs <= endTime && (!symbol || payment.symbol === symbol))
    .sort((a, b) => a.timeMs - b.timeMs)
    .map(fundingFee);
  return explicitStart !== undefined ? entries.slice(0, limit) : entries.slice(-limit);
}

/** A funding settlement as an income entry: 8 decimals, as the document's amounts. */
function fundingFee(payment: FundingPayment): AsterIncome {
  return {
    symbol: payment.symbol,
    incomeType: 'FUNDING_FEE',
    income: payment.amount.toFixed(8),
    asset: payment.asset,
    info: 'FUNDING_FEE',
    time: payment.timeMs,
    tranId: tranIdOf(payment.id),
    tradeId: '',
  };
}

/** `<epoch>-f<seq>` as a number (a string, as the document's `tranId`). */
function tranIdOf(id: string): string {
  const match = /^(\d+)-f(\d+)$/.exec(id);
  return match ? String(Number(match[1]) * EPOCH_SPAN + Number(match[2])) : id;
}
