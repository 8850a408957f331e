import Big from 'big.js';
import { divide } from '../decimal/decimal-math';
import {
  AVERAGE_PRICE_DP,
  averageFillPrice,
  BPS_DP,
  spreadAchieved,
} from '../hedging/execution-quality';
import { absoluteSpread, toSpreadUnits } from '../spread/spread';
import type { MakerLeg, SpreadType } from '../trade/trade-terms';

/** One fill of a leg as its venue reported it; `fee` null when the venue reported none. */
export interface CostFill {
  price: Big;
  size: Big;
  fee: Big | null;
  feeAsset: string | null;
}

/** A hedge's outcome: the size it filled and its slippage against its reference. */
export interface HedgeSlippage {
  filledSize: Big;
  slippageBps: Big;
}

export interface AssetAmount {
  /** Null when the venue's market did not say its quote asset. */
  asset: string | null;
  amount: Big;
}

export interface LegCosts {
  filledSize: Big;
  /** Size-weighted; null when nothing filled. */
  avgPrice: Big | null;
  /** Reported fees summed per asset (negative for a rebate). */
  fees: AssetAmount[];
  fills: number;
  /** Fills the venue reported no fee for: `fees` is then short of the truth. */
  fillsWithoutFee: number;
}

export interface TradeCostsInput {
  makerLeg: MakerLeg;
  spreadType: SpreadType;
  /** max(tick_long, tick_short); null when unknown (a `ticks` spread is then null). */
  coarserTickSize: Big | null;
  /** Each leg's quote asset: the only fees that convert to a spread. */
  quote: { long: string | null; short: string | null };
  long: readonly CostFill[];
  short: readonly CostFill[];
  hedges: readonly HedgeSlippage[];
}

export interface TradeCosts {
  long: LegCosts;
  short: LegCosts;
  /** Sell average minus buy average, in spread_type units; null until both legs filled. */
  realisedSpread: Big | null;
  /** The same less each leg's fees per unit of its size; null when a fee is unknown or not in the quote. */
  realisedSpreadAfterFees: Big | null;
  /** Size-weighted over the hedges that filled; null when none did. */
  avgHedgeSlippageBps: Big | null;
}

/** What a trade's fills came to: per leg, and the spread it captured before and after fees. */
export function tradeCosts(input: TradeCostsInput): TradeCosts {
  const long = legCosts(input.long);
  const short = legCosts(input.short);
  const spread = realisedSpreads(input, long, short);
  return {
    long,
    short,
    realisedSpread: spread?.before ?? null,
    realisedSpreadAfterFees: spread?.after ?? null,
    avgHedgeSlippageBps: averageSlippage(input.hedges),
  };
}

export function legCosts(fills: readonly CostFill[]): LegCosts {
  const fees = new Map<string | null, Big>();
  let filledSize = new Big(0);
  let fillsWithoutFee = 0;
  for (const fill of fills) {
    filledSize = filledSize.plus(fill.size);
    if (fill.fee === null) {
      fillsWithoutFee += 1;
      continue;
    }
    fees.set(fill.feeAsset, (fees.get(fill.feeAsset) ?? new Big(0)).plus(fill.fee));
  }
  return {
    filledSize,
    avgPrice: averageFillPrice(fills),
    fees: [...fees].map(([asset, amount]) => ({ asset, amount })),
    fills: fills.length,
    fillsWithoutFee,
  };
}

function realisedSpreads(
  input: TradeCostsInput,
  long: LegCosts,
  short: LegCosts,
): { before: Big; after: Big | null } | null {
  if (!long.avgPrice || !short.avgPrice) {
    return null;
  }
  if (input.spreadType === 'ticks' && !input.coarserTickSize) {
    return null;
  }
  const maker = input.makerLeg === 'long' ? long : short;
  const hedge = input.makerLeg === 'long' ? short : long;
  const makerPrice = maker.avgPrice as Big;
  const hedgePrice = hedge.avgPrice as Big;
  const coarserTickSize = input.coarserTickSize ?? new Big(1);
  const before = spreadAchieved({
    makerLeg: input.makerLeg,
    makerPrice,
    hedgePrice,
    spreadType: input.spreadType,
    coarserTickSize,
  });
  const longFee = feePerUnit(long, input.quote.long);
  const shortFee = feePerUnit(short, input.quote.short);
  if (!longFee || !shortFee) {
    return { before, after: null };
  }
  const absolute = absoluteSpread(input.makerLeg, makerPrice, hedgePrice)
    .minus(longFee)
    .minus(shortFee);
  const basis = { hedgeReference: hedgePrice, coarserTickSize };
  return { before, after: toSpreadUnits(absolute, input.spreadType, basis) };
}

/**
 * A leg's fees per unit of its filled size, in its quote asset: what they take
 * off the price it got. Null when a fill's fee is unknown or in another asset.
 */
function feePerUnit(leg: LegCosts, quote: string | null): Big | null {
  if (leg.fillsWithoutFee > 0 || quote === null) {
    return null;
  }
  let total = new Big(0);
  for (const fee of leg.fees) {
    if (fee.asset !== quote) {
      return null;
    }
    total = total.plus(fee.amount);
  }
  return divide(total, leg.filledSize).round(AVERAGE_PRICE_DP, Big.roundHalfEven);
}

function averageSlippage(hedges: readonly HedgeSlippage[]): Big | null {
  let size = new Big(0);
  let weighted = new Big(0);
  for (const hedge of hedges) {
    size = size.plus(hedge.filledSize);
    weighted = weighted.plus(hedge.slippageBps.times(hedge.filledSize));
  }
  return size.gt(0) ? divide(weighted, size).round(BPS_DP, Big.roundHalfEven) : null;
}
