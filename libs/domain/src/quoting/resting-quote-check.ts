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
import { type HedgeRule, holdsWithSign } from './hedge-rule';
import { OFF_TOUCH_TOLERANCE_TICKS, type RequoteUrgency } from './requote-urgency';
import { RestingQuoteUnits } from './resting-quote-units';
import { touchQuote } from './touch-quote';

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

/**
 * The spread at a price less a USD amount `perH * H + fixed`, as a line in
 * H without the price's part: H - P - amount for a long maker, P - H -
 * amount for a short one.
 */
function spreadLess(
  makerLeg: MakerLeg,
  amount: { perH: Big; fixed: Big },
): { slope: Big; offset: Big } {
  const slope =
    makerLeg === 'long' ? new Big(1).minus(amount.perH) : new Big(-1).minus(amount.perH);
  return { slope, offset: amount.fixed.neg() };
}

/** The rules of a band around a line: at least `-width`, at most `+width` away from it. */
function band(line: { slope: Big; offset: Big }, width: { perH: Big; fixed: Big }): HedgeRule[] {
  return [
    {
      slope: line.slope.plus(width.perH),
      offset: line.offset.plus(width.fixed),
      bound: 'min',
      strict: false,
    },
    {
      slope: line.slope.minus(width.perH),
      offset: line.offset.minus(width.fixed),
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
 * `requoteUrgency` compiled for one trade's rules, so that each book move
 * costs a few comparisons: the spread condition and worst_spread become
 * linear rules on H (exact: no division), whose price part is worked out
 * once per resting price, and the distance the order may move ahead while
 * valid is each rule's value. Only an order that could lead the touch by
 * more than the tolerance has its touch price worked out. A property spec
 * holds it equal to `requoteUrgency` on random quote cycles and moves.
 *
 * The rules are worked in whole units first (`RestingQuoteUnits`: no Big
 * allocated, a book move ranks hundreds of waiting trades); in big.js
 * decimals only where a value does not fit a double exactly. A property
 * spec holds the two equal.
 */
export class RestingQuoteCheck {
  private readonly rules: HedgeRule[];
  private readonly long: boolean;
  private readonly tolerance: Big;
  private readonly beyond: Big;
  /** The resting price the fields below are for. */
  private price: Big | null = null;
  /** Each rule's intercept at `price`. */
  private intercepts: Big[] = [];
  /** The touch side's price from which the touch price is more than the tolerance ahead. */
  private touchAheadFrom: Big | null = null;
  private readonly units: RestingQuoteUnits;

  constructor(
    private readonly mode: QuoteMode,
    private readonly quoteRules: RestingQuoteRules,
  ) {
    const { makerLeg, market, terms } = quoteRules;
    const coarserTick = coarserTickSize(market);
    const tick = makerRules(market, makerLeg).tickSize;
    this.long = makerLeg === 'long';
    this.tolerance = tick.times(OFF_TOUCH_TOLERANCE_TICKS);
    this.beyond = tick.times(OFF_TOUCH_TOLERANCE_TICKS + 1);
    const target = usdOf(terms.targetSpread, terms.spreadType, coarserTick);
    this.rules = conditionRules(makerLeg, terms, target, coarserTick);
    if (mode === 'aggressive' && quoteRules.worstSpread !== undefined) {
      this.rules.push(...worstRules(makerLeg, terms, target, quoteRules.worstSpread, coarserTick));
    }
    this.units = new RestingQuoteUnits(this.rules, tick, this.long, mode);
  }

  /** How urgent re-quoting an order resting at `price` is on these books (`requoteUrgency`). */
  urgency(price: Big, makerTouch: BookTouch, hedgeReference: Big): RequoteUrgency {
    if (this.atRiskOnTheBook(price, makerTouch, hedgeReference)) {
      return 'at_risk';
    }
    return (
      this.units.urgency(price, makerTouch, hedgeReference) ??
      this.rulesInDecimals(price, makerTouch, hedgeReference)
    );
  }

  /** `urgency` on integers alone; null where a value does not fit a double exactly. */
  urgencyInUnits(price: Big, makerTouch: BookTouch, hedgeReference: Big): RequoteUrgency | null {
    return this.atRiskOnTheBook(price, makerTouch, hedgeReference)
      ? 'at_risk'
      : this.units.urgency(price, makerTouch, hedgeReference);
  }

  /** `urgency` in big.js decimals alone: the rules as compiled, and the integer path's fallback. */
  urgencyInDecimals(price: Big, makerTouch: BookTouch, hedgeReference: Big): RequoteUrgency {
    return this.atRiskOnTheBook(price, makerTouch, hedgeReference)
      ? 'at_risk'
      : this.rulesInDecimals(price, makerTouch, hedgeReference);
  }

  /** The book alone puts the order at risk: crossed or locked, no H, or the price would cross. */
  private atRiskOnTheBook(price: Big, makerTouch: BookTouch, hedgeReference: Big): boolean {
    return (
      isCrossedOrLocked(makerTouch) ||
      signOf(hedgeReference) <= 0 ||
      !this.postOnly(price, makerTouch)
    );
  }

  /** The spread rules and the touch price's lead, in decimals, for an order the book leaves standing. */
  private rulesInDecimals(price: Big, makerTouch: BookTouch, hedgeReference: Big): RequoteUrgency {
    this.restAt(price);
    let room: Big | null = null;
    for (let i = 0; i < this.rules.length; i += 1) {
      const rule = this.rules[i];
      const value = rule.slope.times(hedgeReference).plus(this.intercepts[i]);
      if (!holdsWithSign(rule, signOf(value))) {
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
    return this.touchAhead(makerTouch) && this.touchValid(price, makerTouch, hedgeReference)
      ? 'off_touch'
      : 'routine';
  }

  /** Works out the price's part of each rule, once per resting price. */
  private restAt(price: Big): void {
    if (this.price === price) {
      return;
    }
    this.price = price;
    this.intercepts = this.rules.map((rule) =>
      this.long ? rule.offset.minus(price) : rule.offset.plus(price),
    );
    this.touchAheadFrom = this.long ? price.plus(this.beyond) : price.minus(this.beyond);
  }

  private postOnly(price: Big, { bestBid, bestAsk }: BookTouch): boolean {
    return this.long ? compare(price, bestAsk) < 0 : compare(price, bestBid) > 0;
  }

  /** Whether the touch price may lie more than the tolerance ahead of the order (cheap, exact on the grid). */
  private touchAhead({ bestBid, bestAsk }: BookTouch): boolean {
    const from = this.touchAheadFrom!;
    if (this.long) {
      return this.mode === 'default' ? compare(bestBid, from) >= 0 : compare(bestAsk, from) > 0;
    }
    return this.mode === 'default' ? compare(bestAsk, from) <= 0 : compare(bestBid, from) < 0;
  }

  /** The touch price is more than the tolerance ahead, and every rule holds there. */
  private touchValid(price: Big, makerTouch: BookTouch, hedgeReference: Big): boolean {
    const { makerLeg, market } = this.quoteRules;
    const touch = touchQuote(this.mode, { makerLeg, market, makerTouch });
    if (touch === null) {
      return false;
    }
    const ahead = this.long ? touch.minus(price) : price.minus(touch);
    if (compare(ahead, this.tolerance) <= 0) {
      return false;
    }
    return this.rules.every((rule, i) =>
      holdsWithSign(
        rule,
        signOf(rule.slope.times(hedgeReference).plus(this.intercepts[i]).minus(ahead)),
      ),
    );
  }
}

/** The spread condition at `price`: one rule, or two for `eq` (half the coarser tick either side). */
function conditionRules(
  makerLeg: MakerLeg,
  terms: SpreadTerms,
  target: { perH: Big; fixed: Big },
  coarserTick: Big,
): HedgeRule[] {
  const line = spreadLess(makerLeg, target);
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
  terms: SpreadTerms,
  target: { perH: Big; fixed: Big },
  worstSpread: Big,
  coarserTick: Big,
): HedgeRule[] {
  switch (terms.condition) {
    case 'gte':
    case 'gt': {
      const worst = usdOf(worstSpread, terms.spreadType, coarserTick);
      return [{ ...spreadLess(makerLeg, worst), bound: 'min', strict: false }];
    }
    case 'lte':
    case 'lt': {
      const worst = usdOf(worstSpread, terms.spreadType, coarserTick);
      return [{ ...spreadLess(makerLeg, worst), bound: 'max', strict: false }];
    }
    case 'eq': {
      const distance = worstSpread.minus(terms.targetSpread).abs();
      return band(spreadLess(makerLeg, target), usdOf(distance, terms.spreadType, coarserTick));
    }
  }
}
