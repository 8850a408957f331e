import type Big from 'big.js';

/**
 * `a` compared with `b`: negative when less, 0 when equal, positive when
 * greater; the same answer as `a.cmp(b)`.
 *
 * big.js copies its argument into a new Big on every comparison (`cmp`,
 * `lt`, `eq`, ...). A quote cycle compares dozens of prices, so those copies
 * were a sixth of a busy worker's allocation, and allocation is what sets
 * how often its garbage collector stops the quote loop. This reads the
 * fields big.js documents on every instance instead: the coefficient `c`
 * (digits, most significant first, no trailing zeros; `[0]` for zero), the
 * exponent `e` and the sign `s` (zero may carry either sign).
 */
export function compare(a: Big, b: Big): number {
  const ac = a.c;
  const bc = b.c;
  if (ac[0] === 0) {
    return bc[0] === 0 ? 0 : -b.s;
  }
  if (bc[0] === 0 || a.s !== b.s) {
    return a.s;
  }
  // Same sign from here: `a.s` turns "a has more magnitude" into the answer.
  if (a.e !== b.e) {
    return a.e > b.e ? a.s : -a.s;
  }
  const digits = Math.min(ac.length, bc.length);
  for (let i = 0; i < digits; i++) {
    if (ac[i] !== bc[i]) {
      return ac[i] > bc[i] ? a.s : -a.s;
    }
  }
  return ac.length === bc.length ? 0 : ac.length > bc.length ? a.s : -a.s;
}

/** -1, 0 or 1 as `value` is negative, zero or positive, without parsing a `0` to compare with. */
export function signOf(value: Big): -1 | 0 | 1 {
  if (value.c[0] === 0) {
    return 0;
  }
  return value.s < 0 ? -1 : 1;
}
