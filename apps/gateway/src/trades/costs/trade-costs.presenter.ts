import type Big from 'big.js';
import { formatDecimal, type LegCosts, type TradeCosts } from '@sts/domain';

/** One leg's fills as the trade's `costs` show them (issue 34). */
export interface LegCostsView {
  filled_size: string;
  avg_price: string | null;
  fees: Array<{ asset: string | null; amount: string }>;
  fills: number;
  fills_without_fee: number;
}

export interface TradeCostsView {
  long: LegCostsView;
  short: LegCostsView;
  realised_spread: string | null;
  realised_spread_after_fees: string | null;
  avg_hedge_slippage_bps: string | null;
}

const decimalOrNull = (value: Big | null): string | null =>
  value === null ? null : formatDecimal(value);

const presentLeg = (leg: LegCosts): LegCostsView => ({
  filled_size: formatDecimal(leg.filledSize),
  avg_price: decimalOrNull(leg.avgPrice),
  fees: leg.fees.map((fee) => ({ asset: fee.asset, amount: formatDecimal(fee.amount) })),
  fills: leg.fills,
  fills_without_fee: leg.fillsWithoutFee,
});

export const presentTradeCosts = (costs: TradeCosts): TradeCostsView => ({
  long: presentLeg(costs.long),
  short: presentLeg(costs.short),
  realised_spread: decimalOrNull(costs.realisedSpread),
  realised_spread_after_fees: decimalOrNull(costs.realisedSpreadAfterFees),
  avg_hedge_slippage_bps: decimalOrNull(costs.avgHedgeSlippageBps),
});
