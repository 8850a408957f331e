import Big from 'big.js';
import { compare, signOf } from '../decimal/compare';
import {
  type BookTouch,
  type TradeMarket,
  coarserTickSize,
  isCrossedOrLocked,
} from '../market/market-rules';
import { makerRules } from '../spread/legs';
import type { SpreadTerms } from '../spread/spread';
import type { MakerLeg, QuoteMode, SpreadType } from '../trade/trade-terms';
import { OFF_TOUCH_TOLERANCE_TICKS, type RequoteUrgency } from './requote-urgency';
import { touchQuote } from './touch-quote';

/**
 * One linear rule on H for a fixed maker price: `slope * H + intercept`
 * compared with zero. Every spread rule of a quote is one or two of these,
 * since the USD spread at a price is linear in H (H - P for a long maker,
 * P - H for a short one) and so is a target in any spread_type (a fixed USD
 * amount for absolute and ticks, a share of H for percentage and bps).
 */
interface HedgeRule {
  slope: Big;
  intercept: Big;
  /** `min`: the value must be at least zero (above it when strict); `max`: at most. */
  bound: 'min' | 'max';
  strict: boolean;
}

/** A value in `spreadType` units as USD: `perH * H + fixed`. */
function usdOf(value: Big, spreadType: SpreadType, coarserTick: Big): { perH: Big; fixed: Big } {
  const zero = new Big(0);
  switch (spreadType) {
    case 'absolute':
      return { perH: zero, fixed: value };
    case 'ticks':
      return { perH: zero, fixed: value.times(coarserTick) };
    case 'percentage':
      return { perH: value.times('0.01'), fixed: zero };
    case 'bps':
      return { perH: value.times('0.0001'), fixed: zero };
  }
}

/** The spread at `price` less a USD amount `perH * H + fixed`, as a line in H. */
function spreadLess(
  makerLeg: MakerLeg,
  price: Big,
  amount: { perH: Big; fixed: Big },
): { slope: Big; intercept: Big } {
  return makerLeg === 'long'
    ? { slope: new Big(1).minus(amount.perH), intercept: price.neg().minus(amount.fixed) }
    : { slope: new Big(-1).minus(amount.perH), intercept: price.minus(amount.fixed) };
}

/** The rules of a band around a line: at least `-width`, at most `+width` away from it. */
function band(line: { slope: Big; intercept: Big }, width: { perH: Big; fixed: Big }): HedgeRule[] {
  return [
    {
      slope: line.slope.plus(width.perH),
      intercept: line.intercept.plus(width.fixed),
      bound: 'min',
      strict: false,
    },
    {
      slope: line.slope.minus(width.perH),
      intercept: line.intercept.minus(width.fixed),
      bound: 'max',
      strict: false,
    },
  ];
}

/** What a check is compiled from: the trade's rules, without the books. */
export interface RestingQuoteRules {
  makerLeg: MakerLeg;
  market: TradeMarket;
  terms: SpreadTerms;
  /** In the trade's spread_type; bounds the aggressive quote only. */
  worstSpread?: Big;
}

/**
 * `requoteUrgency` for one resting order, compiled when the order is known
 * so that each book move costs a few comparisons: the spread condition and
 * worst_spread become linear rules on H at the order's price (exact: no
 * division), and the distance the order may move ahead while valid is each
 * rule's value. Only an order that could lead the touch by more than the
 * tolerance has its touch price worked out. A property spec holds it equal
 * to `requoteUrgency` on random quote cycles and moves.
 */
export class RestingQuoteCheck {
  private readonly rules: HedgeRule[];
  private readonly tick: Big;
  private readonly tolerance: Big;
  /** The touch side's price from which the touch price is more than the tolerance ahead. */
  private readonly touchAheadFrom: Big;

  constructor(
    private readonly mode: QuoteMode,
    readonly price: Big,
    private readonly quoteRules: RestingQuoteRules,
  ) {
    const { makerLeg, market, terms } = quoteRules;
    const coarserTick = coarserTickSize(market);
    this.tick = makerRules(market, makerLeg).tickSize;
    this.tolerance = this.tick.times(OFF_TOUCH_TOLERANCE_TICKS);
    const beyond = this.tick.times(OFF_TOUCH_TOLERANCE_TICKS + 1);
    this.touchAheadFrom = makerLeg === 'long' ? price.plus(beyond) : price.minus(beyond);
    const target = usdOf(terms.targetSpread, terms.spreadType, coarserTick);
    this.rules = conditionRules(makerLeg, price, terms, target, coarserTick);
    if (mode === 'aggressive' && quoteRules.worstSpread !== undefined) {
      this.rules.push(
        ...worstRules(makerLeg, price, terms, target, quoteRules.worstSpread, coarserTick),
      );
    }
  }

  /** How urgent re-quoting this order is on these books (`requoteUrgency`). */
  urgency(makerTouch: BookTouch, hedgeReference: Big): RequoteUrgency {
    if (
      isCrossedOrLocked(makerTouch) ||
      signOf(hedgeReference) <= 0 ||
      !this.postOnly(makerTouch)
    ) {
      return 'at_risk';
    }
    let room: Big | null = null;
    for (const rule of this.rules) {
      const value = rule.slope.times(hedgeReference).plus(rule.intercept);
      if (!holds(rule, value)) {
        return 'at_risk';
      }
      if (rule.bound === 'min' && (room === null || compare(value, room) < 0)) {
        room = value;
      }
    }
    // Moving ahead by d lowers every rule's value by d: past `room`, a min rule breaks.
    if (room !== null && compare(room, this.tolerance) <= 0) {
      return 'routine';
    }
    return this.touchAhead(makerTouch) && this.touchValid(makerTouch, hedgeReference)
      ? 'off_touch'
      : 'routine';
  }

  private postOnly({ bestBid, bestAsk }: BookTouch): boolean {
    return this.quoteRules.makerLeg === 'long'
      ? compare(this.price, bestAsk) < 0
      : compare(this.price, bestBid) > 0;
  }

  /** Whether the touch price may lie more than the tolerance ahead of the order (cheap, exact on the grid). */
  private touchAhead({ bestBid, bestAsk }: BookTouch): boolean {
    const from = this.touchAheadFrom;
    if (this.quoteRules.makerLeg === 'long') {
      return this.mode === 'default' ? compare(bestBid, from) >= 0 : compare(bestAsk, from) > 0;
    }
    return this.mode === 'default' ? compare(bestAsk, from) <= 0 : compare(bestBid, from) < 0;
  }

  /** The touch price is more than the tolerance ahead, and every rule holds there. */
  private touchValid(makerTouch: BookTouch, hedgeReference: Big): boolean {
    const { makerLeg, market } = this.quoteRules;
    const touch = touchQuote(this.mode, { makerLeg, market, makerTouch });
    if (touch === null) {
      return false;
    }
    const ahead = makerLeg === 'long' ? touch.minus(this.price) : this.price.minus(touch);
    if (compare(ahead, this.tolerance) <= 0) {
      return false;
    }
    return this.rules.every((rule) =>
      holds(rule, rule.slope.times(hedgeReference).plus(rule.intercept).minus(ahead)),
    );
  }
}

function holds(rule: HedgeRule, value: Big): boolean {
  const sign = signOf(value);
  if (rule.bound === 'min') {
    return rule.strict ? sign > 0 : sign >= 0;
  }
  return rule.strict ? sign < 0 : sign <= 0;
}

/** The spread condition at `price`: one rule, or two for `eq` (half the coarser tick either side). */
function conditionRules(
  makerLeg: MakerLeg,
  price: Big,
  terms: SpreadTerms,
  target: { perH: Big; fixed: Big },
  coarserTick: Big,
): HedgeRule[] {
  const line = spreadLess(makerLeg, price, target);
  switch (terms.condition) {
    case 'gte':
    case 'gt':
      return [{ ...line, bound: 'min', strict: terms.condition === 'gt' }];
    case 'lte':
    case 'lt':
      return [{ ...line, bound: 'max', strict: terms.condition === 'lt' }];
    case 'eq':
      return band(line, { perH: new Big(0), fixed: coarserTick.times('0.5') });
  }
}

/** worst_spread at `price` (worstSpreadRange): no worse than it, or for `eq` no farther from the target. */
function worstRules(
  makerLeg: MakerLeg,
  price: Big,
  terms: SpreadTerms,
  target: { perH: Big; fixed: Big },
  worstSpread: Big,
  coarserTick: Big,
): HedgeRule[] {
  switch (terms.condition) {
    case 'gte':
    case 'gt': {
      const worst = usdOf(worstSpread, terms.spreadType, coarserTick);
      return [{ ...spreadLess(makerLeg, price, worst), bound: 'min', strict: false }];
    }
    case 'lte':
    case 'lt': {
      const worst = usdOf(worstSpread, terms.spreadType, coarserTick);
      return [{ ...spreadLess(makerLeg, price, worst), bound: 'max', strict: false }];
    }
    case 'eq': {
      const distance = worstSpread.minus(terms.targetSpread).abs();
      return band(
        spreadLess(makerLeg, price, target),
        usdOf(distance, terms.spreadType, coarserTick),
      );
    }
  }
}
