/**
 * Spec-only fixtures for the domain (not exported from the lib). Prices and
 * sizes are written as decimal strings, as they arrive on the wire.
 */
import Big from 'big.js';
import fc from 'fast-check';
import type { LegRules, TradeMarket } from '../market/market-rules';

export const big = (value: string): Big => new Big(value);

export const legRules = (rules: {
  tick: string;
  lot: string;
  minSize: string;
  minNotional?: string;
}): LegRules => ({
  tickSize: big(rules.tick),
  lotSize: big(rules.lot),
  minSize: big(rules.minSize),
  minNotional: rules.minNotional === undefined ? undefined : big(rules.minNotional),
});

/** A BTC-like pair: a 0.1 tick venue long, a 0.5 tick venue short. */
export const btcMarket = (): TradeMarket => ({
  long: legRules({ tick: '0.1', lot: '0.001', minSize: '0.001', minNotional: '10' }),
  short: legRules({ tick: '0.5', lot: '0.01', minSize: '0.01', minNotional: '5' }),
});

/** Decimal steps like real venues': 1, 5, 25 or 2 times a power of ten. */
export const stepArb = (minExp: number, maxExp: number): fc.Arbitrary<Big> =>
  fc
    .tuple(fc.constantFrom('1', '5', '25', '2'), fc.integer({ min: minExp, max: maxExp }))
    .map(([mantissa, exp]) => big(mantissa).times(`1e${exp}`));

/** A positive multiple of `step`, between `min` and `max` steps. */
export const onGrid = (step: Big, min: number, max: number): fc.Arbitrary<Big> =>
  fc.integer({ min, max }).map((n) => step.times(n));
