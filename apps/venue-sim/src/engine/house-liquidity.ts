import { matchIncoming, type MatchResult } from './matching';
import type { Ladder, MarketState } from './market-state';
import type { Side } from './order-book';

/** Chance per tick that the house re-sizes a level it keeps quoting. */
const RESIZE_PROBABILITY = 0.05;
export const HOUSE = 'house';

/**
 * The house's ladder around the venue mid: the touch at least half the
 * venue's spread from the mid, then `levels - 1` prices per side on a fixed
 * grid of level steps, so a small move of the mid changes the touch and not
 * the whole depth. Sizes grow with depth and are re-drawn now and then, so
 * the book breathes.
 */
export function targetLadder(market: MarketState, levels: number): Ladder {
  const { spec, price, houseRng } = market;
  const half = (market.mid * spec.halfSpreadBps) / 10_000;
  const bestBid = price.floorSteps(market.mid - half);
  let bestAsk = price.ceilSteps(market.mid + half);
  if (bestAsk <= bestBid) {
    bestAsk = bestBid + 1;
  }
  const next: Ladder = { buy: new Map(), sell: new Map() };
  const lotValue = market.lot.toFloat(1) * market.mid;
  const step = market.levelStepTicks;
  const bidGrid = Math.floor((bestBid - 1) / step) * step;
  const askGrid = Math.ceil((bestAsk + 1) / step) * step;
  for (let level = 0; level < levels; level += 1) {
    for (const side of ['buy', 'sell'] as const) {
      const priceTicks =
        level === 0
          ? side === 'buy'
            ? bestBid
            : bestAsk
          : side === 'buy'
            ? bidGrid - (level - 1) * step
            : askGrid + (level - 1) * step;
      if (priceTicks <= 0) {
        continue;
      }
      const kept = market.ladder[side].get(priceTicks);
      if (kept !== undefined && houseRng.next() >= RESIZE_PROBABILITY) {
        next[side].set(priceTicks, kept);
        continue;
      }
      const notional = spec.levelNotionalUsd * (1 + 0.4 * level) * (0.5 + houseRng.next());
      next[side].set(priceTicks, Math.max(market.minLots, Math.round(notional / lotValue)));
    }
  }
  return next;
}

/**
 * Moves the house's resting orders to the target ladder. New quotes go
 * through matching: when the mid has moved through an account's resting
 * order, the house trades with it at the account's price (the market trading
 * through a maker order). `settle` books those fills to the accounts.
 */
export function applyLadder(
  market: MarketState,
  target: Ladder,
  settle: (result: MatchResult) => void,
): void {
  const { book, house } = market;
  for (const side of ['buy', 'sell'] as const) {
    for (const [priceTicks, order] of house[side]) {
      if (
        target[side].get(priceTicks) !== order.remainingLots ||
        book.get(order.orderId) === undefined
      ) {
        book.cancel(order.orderId);
        house[side].delete(priceTicks);
      }
    }
  }
  for (const side of ['buy', 'sell'] as const) {
    for (const [priceTicks, lots] of target[side]) {
      if (!house[side].has(priceTicks)) {
        quote(market, side, priceTicks, lots, settle);
      }
    }
  }
  market.ladder = target;
}

function quote(
  market: MarketState,
  side: Side,
  priceTicks: number,
  lots: number,
  settle: (result: MatchResult) => void,
): void {
  const result = matchIncoming(market.book, { owner: HOUSE, side, limitTicks: priceTicks, lots });
  if (result.matches.length > 0 || result.selfTradeCanceled.length > 0) {
    settle(result);
  }
  const remaining = lots - result.filledLots;
  if (remaining <= 0) {
    return;
  }
  const order = {
    orderId: market.nextParticipantOrderId('h'),
    owner: HOUSE,
    side,
    priceTicks,
    remainingLots: remaining,
  };
  market.book.rest(order);
  market.house[side].set(priceTicks, order);
}
