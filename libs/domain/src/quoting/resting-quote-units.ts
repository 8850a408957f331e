import type Big from 'big.js';
import {
  ceilToMultiple,
  exactMinus,
  exactPlus,
  exactTimes,
  floorToMultiple,
  unitsOrNaN,
} from '../decimal/exact-units';
import type { BookTouch } from '../market/market-rules';
import type { QuoteMode } from '../trade/trade-terms';
import { decimalsOf } from './fixed-point-quote';
import { type HedgeRule, holdsWithSign } from './hedge-rule';
import { OFF_TOUCH_TOLERANCE_TICKS, type RequoteUrgency } from './requote-urgency';

/**
 * `RestingQuoteCheck`'s rules on integers: the resting price, the touch, the
 * tick and each rule's offset as whole units of one price scale, each slope
 * as whole units of its own places and H of the rest, so every rule's value
 * is one product and one sum, exact, allocating nothing. The scale is the
 * most places any of them needs; the units of the fixed parts are worked out
 * again only when it changes, the intercepts only when the price does. A
 * value a double cannot hold exactly gives null: the decimal path decides.
 */
export class RestingQuoteUnits {
  /** Places of the slopes; a slope is whole units of `10^-slopePlaces`. */
  private readonly slopePlaces: number;
  private readonly slopes: number[];
  /** Places the tick and every offset need: a price scale holds them all. */
  private readonly fixedPlaces: number;
  /** The price scale the units below are at (-1: none yet). */
  private scale = -1;
  private readonly offsets: number[];
  private tick = Number.NaN;
  private tolerance = Number.NaN;
  private beyond = Number.NaN;
  /** The resting price `priceUnits` and `intercepts` are for, at `scale`. */
  private price: Big | null = null;
  private priceUnits = Number.NaN;
  private readonly intercepts: number[];
  /** Each rule's value at the last H, which the touch price's check moves. */
  private readonly values: number[];

  constructor(
    private readonly rules: readonly HedgeRule[],
    private readonly tickSize: Big,
    private readonly long: boolean,
    private readonly mode: QuoteMode,
  ) {
    this.slopePlaces = Math.max(0, ...rules.map((rule) => decimalsOf(rule.slope)));
    this.slopes = rules.map((rule) => unitsOrNaN(rule.slope, this.slopePlaces));
    this.fixedPlaces = Math.max(decimalsOf(tickSize), ...rules.map((r) => decimalsOf(r.offset)));
    this.offsets = rules.map(() => Number.NaN);
    this.intercepts = rules.map(() => Number.NaN);
    this.values = rules.map(() => Number.NaN);
  }

  /**
   * The urgency of an order at `price` that is post-only on a touch neither
   * crossed nor locked, with H above zero (`RestingQuoteCheck` tells those
   * apart first), or null when a value does not fit a double exactly.
   */
  urgency(price: Big, touch: BookTouch, hedgeReference: Big): RequoteUrgency | null {
    const scale = Math.max(
      this.fixedPlaces,
      decimalsOf(price),
      decimalsOf(touch.bestBid),
      decimalsOf(touch.bestAsk),
      decimalsOf(hedgeReference) + this.slopePlaces,
    );
    if (!this.restAt(price, scale)) {
      return null;
    }
    const h = unitsOrNaN(hedgeReference, scale - this.slopePlaces);
    // Moving ahead by d lowers every rule's value by d: past the least min rule's value, it breaks.
    let room = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.rules.length; i += 1) {
      const value = exactPlus(exactTimes(this.slopes[i], h), this.intercepts[i]);
      if (Number.isNaN(value)) {
        return null;
      }
      this.values[i] = value;
      const rule = this.rules[i];
      if (!holdsWithSign(rule, Math.sign(value))) {
        return 'at_risk';
      }
      if (rule.bound === 'min' && value < room) {
        room = value;
      }
    }
    if (room <= this.tolerance) {
      return 'routine';
    }
    return this.touchIsBetter(unitsOrNaN(touch.bestBid, scale), unitsOrNaN(touch.bestAsk, scale));
  }

  /** `off_touch` when the touch price is more than the tolerance ahead and valid, else `routine`. */
  private touchIsBetter(bid: number, ask: number): RequoteUrgency | null {
    if (Number.isNaN(bid) || Number.isNaN(ask)) {
      return null;
    }
    if (!this.touchAhead(bid, ask)) {
      return 'routine';
    }
    const touchPrice = this.touchPrice(bid, ask);
    if (touchPrice <= 0) {
      return 'routine';
    }
    const ahead = this.long ? touchPrice - this.priceUnits : this.priceUnits - touchPrice;
    if (ahead <= this.tolerance) {
      return 'routine';
    }
    for (let i = 0; i < this.rules.length; i += 1) {
      const value = exactMinus(this.values[i], ahead);
      if (Number.isNaN(value)) {
        return null;
      }
      if (!holdsWithSign(this.rules[i], Math.sign(value))) {
        return 'routine';
      }
    }
    return 'off_touch';
  }

  /** The units of the fixed parts at `scale`, and of `price` and each rule's intercept; false when one does not fit. */
  private restAt(price: Big, scale: number): boolean {
    if (scale !== this.scale) {
      this.scale = scale;
      this.price = null;
      this.tick = unitsOrNaN(this.tickSize, scale);
      this.tolerance = exactTimes(this.tick, OFF_TOUCH_TOLERANCE_TICKS);
      this.beyond = exactTimes(this.tick, OFF_TOUCH_TOLERANCE_TICKS + 1);
      for (let i = 0; i < this.rules.length; i += 1) {
        this.offsets[i] = unitsOrNaN(this.rules[i].offset, scale);
      }
    }
    if (this.price !== price) {
      this.price = price;
      const units = unitsOrNaN(price, scale);
      this.priceUnits = units;
      for (let i = 0; i < this.rules.length; i += 1) {
        this.intercepts[i] = this.long
          ? exactMinus(this.offsets[i], units)
          : exactPlus(this.offsets[i], units);
      }
    }
    return this.tick > 0 && !Number.isNaN(this.beyond) && Number.isSafeInteger(this.priceUnits);
  }

  /** The touch side's price may lie more than the tolerance ahead of the order (cheap, exact on the grid). */
  private touchAhead(bid: number, ask: number): boolean {
    if (this.long) {
      const from = this.priceUnits + this.beyond;
      return this.mode === 'default' ? bid >= from : ask > from;
    }
    const from = this.priceUnits - this.beyond;
    return this.mode === 'default' ? ask <= from : bid < from;
  }

  /** `touchQuote` in units: the default quote joins the touch, the aggressive one rests a tick from crossing. */
  private touchPrice(bid: number, ask: number): number {
    const tick = this.tick;
    if (this.mode === 'default') {
      return this.long ? floorToMultiple(bid, tick) : ceilToMultiple(ask, tick);
    }
    return this.long ? ceilToMultiple(ask, tick) - tick : floorToMultiple(bid, tick) + tick;
  }
}
