import type Big from 'big.js';
import { decimalsOf } from '../quoting/fixed-point-quote';
import { compare } from './compare';
import { exactMinus, unitsOrNaN } from './exact-units';

/**
 * `minuend - subtrahend` equals `value`, exactly: on whole units of the
 * scale all three need, allocating nothing, and in big.js where one does not
 * fit a double (what an order has left against the size a quote wants).
 */
export function differenceEquals(minuend: Big, subtrahend: Big, value: Big): boolean {
  const scale = Math.max(decimalsOf(minuend), decimalsOf(subtrahend), decimalsOf(value));
  const difference = exactMinus(unitsOrNaN(minuend, scale), unitsOrNaN(subtrahend, scale));
  const units = unitsOrNaN(value, scale);
  if (Number.isNaN(difference) || Number.isNaN(units)) {
    return compare(minuend.minus(subtrahend), value) === 0;
  }
  return difference === units;
}
