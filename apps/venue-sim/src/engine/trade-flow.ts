import { matchIncoming, type MatchResult } from './matching';
import type { MarketState } from './market-state';
import type { Side } from './order-book';
import { NOMINAL_STEP_MS } from './price-process';

export const FLOW = 'flow';
/** How far past the mid a flow taker is willing to sweep. */
const FLOW_SWEEP_BPS = 30;

export interface FlowProfile {
  takersPerTick: number;
  takerNotionalUsd: number;
}

/**
 * Who the takers of a venue are: `share` of them (0..1) are informed, they
 * know the asset's fair price `horizonMs` of simulated time ahead and only
 * take the side that move favours; the rest pick a side at random.
 */
export interface InformedFlow {
  share: number;
  horizonMs: number;
}

/** Every taker random: the flow as it was before informed takers existed. */
export const RANDOM_FLOW: InformedFlow = { share: 0, horizonMs: 10_000 };

/** What the flow may know of the future: the fair price's log move over the next steps. */
export type FairMoveAhead = (asset: string, steps: number) => number;

export interface FlowContext {
  profile: FlowProfile;
  informed: InformedFlow;
  fairMoveAhead: FairMoveAhead;
}

/**
 * Other traders: a Poisson number of taker orders per tick, exponential
 * size, each walking the book by price-time priority and so filling resting
 * account orders at the touch, partially or fully. A random taker's side is
 * a coin; an informed one buys before a rise of the fair price and sells
 * before a fall (and sits out when the price will not move), so the makers
 * it fills are picked off. Count, size and coin come from the market's flow
 * stream whatever the share, and who is informed from a stream of its own,
 * drawn only when the share is above 0: the setting changes sides, never
 * the rest, and at 0 the flow is the one of old.
 */
export function runTradeFlow(
  market: MarketState,
  { profile, informed, fairMoveAhead }: FlowContext,
  settle: (result: MatchResult) => void,
): void {
  const { flowRng } = market;
  const takers = flowRng.poisson(profile.takersPerTick);
  for (let i = 0; i < takers; i += 1) {
    const coin: Side = flowRng.next() < 0.5 ? 'buy' : 'sell';
    const notional = flowRng.exponential(profile.takerNotionalUsd);
    const side =
      informed.share > 0 && market.informedRng.next() < informed.share
        ? favouredSide(fairMoveAhead(market.spec.asset, horizonSteps(informed)))
        : coin;
    if (side === undefined) {
      continue;
    }
    const lots = Math.max(1, Math.round(notional / (market.lot.toFloat(1) * market.mid)));
    const sweep = (market.mid * FLOW_SWEEP_BPS) / 10_000;
    const limitTicks =
      side === 'buy'
        ? market.price.ceilSteps(market.mid + sweep)
        : market.price.floorSteps(market.mid - sweep);
    settle(matchIncoming(market.book, { owner: FLOW, side, limitTicks, lots }));
  }
}

/** Simulated steps in an informed taker's horizon (at least one). */
export const horizonSteps = (informed: InformedFlow): number =>
  Math.max(1, Math.round(informed.horizonMs / NOMINAL_STEP_MS));

const favouredSide = (logMove: number): Side | undefined =>
  logMove > 0 ? 'buy' : logMove < 0 ? 'sell' : undefined;

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

/**
 * An outside taker that trades with one resting order alone, as if it were
 * first in its queue (the control endpoint's fill of one order): the rest of
 * the book is left as it was. Returns the lots filled (0: no such order).
 */
export function takeFromOrder(
  market: MarketState,
  orderId: string,
  lots: number,
  settle: (result: MatchResult) => void,
): number {
  const maker = market.book.get(orderId);
  if (!maker) {
    return 0;
  }
  const filled = Math.min(lots, maker.remainingLots);
  const { priceTicks } = maker;
  market.book.fill(maker, filled);
  settle({
    filledLots: filled,
    matches: [{ maker, priceTicks, lots: filled }],
    selfTradeCanceled: [],
  });
  return filled;
}
