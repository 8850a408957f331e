import { matchIncoming, type MatchResult } from './matching';
import type { MarketState } from './market-state';
import type { Side } from './order-book';

export const FLOW = 'flow';
/** How far past the mid a flow taker is willing to sweep. */
const FLOW_SWEEP_BPS = 30;

export interface FlowProfile {
  takersPerTick: number;
  takerNotionalUsd: number;
}

/**
 * Other traders: a Poisson number of taker orders per tick, random side,
 * exponential size, each walking the book by price-time priority and so
 * filling resting account orders at the touch, partially or fully.
 */
export function runTradeFlow(
  market: MarketState,
  profile: FlowProfile,
  settle: (result: MatchResult) => void,
): void {
  const { flowRng } = market;
  const takers = flowRng.poisson(profile.takersPerTick);
  for (let i = 0; i < takers; i += 1) {
    const side: Side = flowRng.next() < 0.5 ? 'buy' : 'sell';
    const notional = flowRng.exponential(profile.takerNotionalUsd);
    const lots = Math.max(1, Math.round(notional / (market.lot.toFloat(1) * market.mid)));
    const sweep = (market.mid * FLOW_SWEEP_BPS) / 10_000;
    const limitTicks =
      side === 'buy'
        ? market.price.ceilSteps(market.mid + sweep)
        : market.price.floorSteps(market.mid - sweep);
    settle(matchIncoming(market.book, { owner: FLOW, side, limitTicks, lots }));
  }
}

/** One taker order from the outside world, as the control endpoint asks for it. */
export function takeLiquidity(
  market: MarketState,
  side: Side,
  lots: number,
  limitTicks: number,
  settle: (result: MatchResult) => void,
): number {
  const result = matchIncoming(market.book, { owner: FLOW, side, limitTicks, lots });
  settle(result);
  return result.filledLots;
}
