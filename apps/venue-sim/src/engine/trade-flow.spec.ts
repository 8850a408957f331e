import { VENUE_PROFILES } from '../config/venue-profiles';
import { applyLadder, targetLadder } from './house-liquidity';
import { MarketState } from './market-state';
import type { MatchResult } from './matching';
import type { Side } from './order-book';
import { RANDOM_FLOW, runTradeFlow, type InformedFlow } from './trade-flow';

const hyperliquid = VENUE_PROFILES.find((profile) => profile.id === 'hyperliquid')!;
const btc = hyperliquid.markets.find((spec) => spec.symbol === 'BTC')!;
/** Busy enough that 200 ticks see every kind of taker. */
const busy = { takersPerTick: 2, takerNotionalUsd: 5_000 };

/** The takers' sides over `ticks` ticks, with the book re-quoted before each. */
function takerSides(informed: InformedFlow, logMove: number, ticks = 200): Side[] {
  const market = new MarketState('hyperliquid', btc, 9, 97_000);
  const sides: Side[] = [];
  const settle = (result: MatchResult): void => {
    // The maker's side is the book side the taker hit; the taker's is the other.
    const maker = result.matches[0]?.maker.side;
    if (maker) {
      sides.push(maker === 'buy' ? 'sell' : 'buy');
    }
  };
  for (let tick = 0; tick < ticks; tick += 1) {
    applyLadder(market, targetLadder(market, hyperliquid.levels), () => undefined);
    runTradeFlow(market, { profile: busy, informed, fairMoveAhead: () => logMove }, settle);
  }
  return sides;
}

const count = (sides: Side[], side: Side): number => sides.filter((s) => s === side).length;

describe('trade flow', () => {
  it('trades both sides at random when no taker is informed, whatever the coming move', () => {
    const sides = takerSides(RANDOM_FLOW, 0.01);
    expect(count(sides, 'buy')).toBeGreaterThan(150);
    expect(count(sides, 'sell')).toBeGreaterThan(150);
    expect(takerSides(RANDOM_FLOW, -0.01)).toEqual(sides);
  });

  it('has informed takers buy before a rise, sell before a fall, and sit out a flat price', () => {
    const all: InformedFlow = { share: 1, horizonMs: 10_000 };
    const rise = takerSides(all, 0.001);
    expect(rise.length).toBeGreaterThan(300);
    expect(count(rise, 'sell')).toBe(0);
    const fall = takerSides(all, -0.001);
    expect(fall.length).toBe(rise.length);
    expect(count(fall, 'buy')).toBe(0);
    expect(takerSides(all, 0)).toEqual([]);
  });

  it('makes about the share informed, and the same takers for the same seed', () => {
    const half: InformedFlow = { share: 0.5, horizonMs: 10_000 };
    const sides = takerSides(half, 0.001);
    // Half informed (all buying), half random (half buying): three buys to one sell.
    const buyShare = count(sides, 'buy') / sides.length;
    expect(buyShare).toBeGreaterThan(0.68);
    expect(buyShare).toBeLessThan(0.82);
    expect(takerSides(half, 0.001)).toEqual(sides);
  });
});
