import Big from 'big.js';
import { divide } from '../decimal/decimal-math';
import type { MakerLeg, SpreadCondition, SpreadType } from '../trade/trade-terms';

/** What the trader asked for: fill only while the spread `condition` `targetSpread`. */
export interface SpreadTerms {
  spreadType: SpreadType;
  condition: SpreadCondition;
  /** In units of spreadType. */
  targetSpread: Big;
}

/** What converts a USD spread to the other units (decisions 2). */
export interface SpreadBasis {
  /** H: percentage and bps are fractions of it. */
  hedgeReference: Big;
  /** max(tick_long, tick_short): the unit of `ticks`. */
  coarserTickSize: Big;
}

/**
 * `spread = sell price - buy price` in USD. A long maker buys at the maker
 * price and the hedge sells; a short maker sells and the hedge buys.
 */
export const absoluteSpread = (makerLeg: MakerLeg, makerPrice: Big, hedgePrice: Big): Big =>
  makerLeg === 'long' ? hedgePrice.minus(makerPrice) : makerPrice.minus(hedgePrice);

/**
 * A spread in `spreadType` units expressed in USD. Exact: the divisors are
 * powers of ten, applied as multiplications, so condition checks never
 * depend on a rounded quotient.
 */
export const toAbsoluteSpread = (value: Big, spreadType: SpreadType, basis: SpreadBasis): Big => {
  switch (spreadType) {
    case 'absolute':
      return value;
    case 'percentage':
      return value.times(basis.hedgeReference).times('0.01');
    case 'bps':
      return value.times(basis.hedgeReference).times('0.0001');
    case 'ticks':
      return value.times(basis.coarserTickSize);
  }
};

/** Decimal places kept when a USD spread is shown in percentage, bps or ticks. */
export const SPREAD_UNITS_DP = 10;

/**
 * A USD spread in `spreadType` units, for reports (spread_achieved). Rounded
 * half-even to SPREAD_UNITS_DP places: a quotient like 1/3 has no exact form.
 */
export const toSpreadUnits = (absolute: Big, spreadType: SpreadType, basis: SpreadBasis): Big => {
  switch (spreadType) {
    case 'absolute':
      return absolute;
    case 'percentage':
      return divide(absolute.times(100), basis.hedgeReference).round(
        SPREAD_UNITS_DP,
        Big.roundHalfEven,
      );
    case 'bps':
      return divide(absolute.times(10000), basis.hedgeReference).round(
        SPREAD_UNITS_DP,
        Big.roundHalfEven,
      );
    case 'ticks':
      return divide(absolute, basis.coarserTickSize).round(SPREAD_UNITS_DP, Big.roundHalfEven);
  }
};
