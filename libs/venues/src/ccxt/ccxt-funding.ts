import Big from 'big.js';
import type { FundingHistory } from 'ccxt';
import type { VenueFundingPayment } from '../model/account';

/**
 * One funding payment as a venue's answer gives it, in the port's terms
 * (signed amount, positive received) but with ccxt's unified symbol: the
 * client names the market (native and canonical) and its margin asset.
 */
export interface FundingEntry {
  /** ccxt's unified symbol of the market. */
  unified: string;
  timeMs: number;
  /** Signed decimal: positive received, negative paid. */
  amount: string;
  /** The asset the venue names the payment in, where its answer names one. */
  asset?: string;
  /** The interval's rate (positive: longs pay), where the venue gives it. */
  rate?: string;
  /** The signed position it was paid on (positive long), where the venue gives it. */
  size?: string;
}

/** The names of a market as the port speaks them. */
export interface FundingMarketNames {
  symbol: string;
  market: string;
  marginAsset: string;
}

type Raw = Record<string, unknown>;

/** A venue's decimal (string or number) as an exact decimal string; undefined when absent. */
function decimalOf(value: unknown): string | undefined {
  if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) {
    try {
      return new Big(String(value)).toFixed();
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function requiredDecimal(value: unknown, what: string): string {
  const parsed = decimalOf(value);
  if (parsed === undefined) {
    throw new Error(`funding payment lacks ${what}`);
  }
  return parsed;
}

function requiredTime(value: unknown, what: string): number {
  const time = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isSafeInteger(time)) {
    throw new Error(`funding payment lacks ${what}`);
  }
  return time;
}

const rawOf = (value: unknown): Raw =>
  value && typeof value === 'object' ? (value as Raw) : ({} as Raw);

/** A size with its side's sign: `LONG`/`long` as it is, `SHORT`/`short` negated. */
function signedSize(size: unknown, side: unknown): string | undefined {
  const absolute = decimalOf(size);
  if (absolute === undefined) {
    return undefined;
  }
  const magnitude = new Big(absolute).abs();
  return (String(side).toLowerCase() === 'short' ? magnitude.neg() : magnitude).toFixed();
}

/**
 * Hyperliquid `userFunding` (info endpoint, "Retrieve a user's funding
 * history"), as ccxt 4.5.84's fetchFundingHistory parses it:
 * `{time, hash, delta: {type: 'funding', coin, usdc, szi, fundingRate,
 * nSamples}}`. `usdc` is the signed change of the account's USDC (negative
 * paid), `szi` the signed position, `fundingRate` the hour's rate. The
 * amount is read from the venue's string, not ccxt's float.
 */
export function hyperliquidFunding(income: FundingHistory): FundingEntry {
  const info = rawOf(income.info);
  const delta = rawOf(info['delta']);
  const entry: FundingEntry = {
    unified: income.symbol ?? String(delta['coin'] ?? ''),
    timeMs: requiredTime(info['time'] ?? income.timestamp, 'time'),
    amount: requiredDecimal(delta['usdc'], 'delta.usdc'),
  };
  const rate = decimalOf(delta['fundingRate']);
  if (rate !== undefined) {
    entry.rate = rate;
  }
  const size = decimalOf(delta['szi']);
  if (size !== undefined) {
    entry.size = size;
  }
  return entry;
}

/**
 * Aster `GET /fapi/v3/income` with `incomeType=FUNDING_FEE` (asterdex/api-docs
 * v3, "Get Income History (USER_DATA)"; Binance USDⓈ-M's reading: `income`
 * positive is an inflow, negative an outflow), as ccxt parses it: `{symbol,
 * incomeType, income, asset, info, time, tranId, tradeId}`. Entries of any
 * other income type are not funding: undefined.
 */
export function asterFunding(income: FundingHistory): FundingEntry | undefined {
  const info = rawOf(income.info);
  if (info['incomeType'] !== undefined && info['incomeType'] !== 'FUNDING_FEE') {
    return undefined;
  }
  const asset = info['asset'];
  return {
    unified: income.symbol ?? String(info['symbol'] ?? ''),
    timeMs: requiredTime(info['time'] ?? income.timestamp, 'time'),
    amount: requiredDecimal(info['income'], 'income'),
    ...(typeof asset === 'string' && asset !== '' ? { asset } : {}),
  };
}

/**
 * Extended `GET /api/v1/user/funding/history` (api.docs.extended.exchange,
 * "Get funding payments"): `{id, accountId, market, positionId, side, size,
 * value, markPrice, fundingFee, fundingRate, paidTime}`, as ccxt parses it.
 * The document calls `fundingFee` the "funding payment size" and says
 * nothing of its sign, so the sign is the rate's rule, which every venue
 * states the same way: a positive rate has longs pay and shorts receive. A
 * long's payment at a positive rate is paid (negative), whichever sign the
 * venue writes the fee with.
 */
export function extendedFunding(history: FundingHistory): FundingEntry {
  const info = rawOf(history.info);
  const fee = new Big(requiredDecimal(info['fundingFee'], 'fundingFee'));
  const rate = decimalOf(info['fundingRate']);
  const short = String(info['side']).toUpperCase() === 'SHORT';
  // Without a rate the fee's own sign is all there is (read as received positive).
  const received = rate === undefined ? fee.gte(0) : short === new Big(rate).gte(0);
  const entry: FundingEntry = {
    unified: history.symbol ?? String(info['market'] ?? ''),
    timeMs: requiredTime(info['paidTime'] ?? history.timestamp, 'paidTime'),
    amount: (received ? fee.abs() : fee.abs().neg()).toFixed(),
  };
  if (rate !== undefined) {
    entry.rate = rate;
  }
  const size = signedSize(info['size'], info['side']);
  if (size !== undefined) {
    entry.size = size;
  }
  return entry;
}

/**
 * Paradex `GET /v1/funding/payments` (docs.paradex.trade, "Funding payments
 * history"): `results` of `{account, created_at, fill_id, id, index,
 * market, payment}`; `payment` is the account's signed funding cash flow
 * (positive received). No rate or size is given.
 */
export function paradexFunding(raw: Raw, unified: string): FundingEntry {
  return {
    unified,
    timeMs: requiredTime(raw['created_at'], 'created_at'),
    amount: requiredDecimal(raw['payment'], 'payment'),
  };
}

/** Epoch times below this are seconds: 10¹¹ s is the year 5138, 10¹¹ ms is 1973. */
const SECONDS_BELOW = 100_000_000_000;

/**
 * Lighter `GET /api/v1/positionFunding` (apidocs.lighter.xyz "positionFunding";
 * lighter-python `PositionFunding`): `{timestamp, market_id, funding_id,
 * change, rate, position_size, position_side, discount}`. `change` is the
 * account's collateral change (positive received), `position_size` unsigned
 * beside `position_side` (`long`/`short`). The document's example times
 * the payment in seconds (`1640995200`) where the venue's trades are in
 * milliseconds: a time below 10¹¹ is read as seconds.
 */
export function lighterFunding(raw: Raw, unified: string): FundingEntry {
  const time = requiredTime(raw['timestamp'], 'timestamp');
  const entry: FundingEntry = {
    unified,
    timeMs: time < SECONDS_BELOW ? time * 1000 : time,
    amount: requiredDecimal(raw['change'], 'change'),
  };
  const rate = decimalOf(raw['rate']);
  if (rate !== undefined) {
    entry.rate = rate;
  }
  const size = signedSize(raw['position_size'], raw['position_side']);
  if (size !== undefined) {
    entry.size = size;
  }
  return entry;
}

/** A venue's funding entry as the port's payment, its market named. */
export function toFundingPayment(
  entry: FundingEntry,
  exchange: string,
  names: FundingMarketNames,
): VenueFundingPayment {
  const payment: VenueFundingPayment = {
    exchange,
    symbol: names.symbol,
    market: names.market,
    timeMs: entry.timeMs,
    amount: entry.amount,
    asset: entry.asset ?? names.marginAsset,
  };
  if (entry.rate !== undefined) {
    payment.rate = entry.rate;
  }
  if (entry.size !== undefined) {
    payment.size = entry.size;
  }
  return payment;
}
