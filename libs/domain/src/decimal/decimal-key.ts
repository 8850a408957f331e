/**
 * Decimal strings compared as numbers, without parsing them into Big. A
 * book update moves a few levels, and a local book parsed each into a Big
 * (and its size, to see whether it was zero) to find its place: garbage on
 * every update of every market, which is what starts the scavenges that
 * pause quoting.
 *
 * A double holds 15 significant decimal digits exactly: every decimal with
 * at most 15 parses (correctly rounded) to a number no other such decimal
 * parses to, and rounding keeps their order. So for those, comparing the
 * parsed numbers is comparing the decimals. Anything else (more digits, an
 * exponent, not a decimal at all) has no key, and the caller compares it
 * as a Big.
 */

/** Significant digits every decimal keeps when parsed to a double. */
const EXACT_DIGITS = 15;

const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/**
 * The decimal's value as a number that orders and equals exactly as the
 * decimal does, or NaN when `text` is not a plain decimal (`-` once in
 * front, digits, one `.` between digits) of at most 15 significant digits.
 * Trailing zeros count as digits: a few more NaN, never a wrong key.
 */
export function decimalKey(text: string): number {
  const digits = significantDigits(text);
  return digits >= 0 && digits <= EXACT_DIGITS ? Number(text) : Number.NaN;
}

/**
 * -1, 0 or 1 as the decimal is negative, zero or positive; null when `text`
 * is not a plain decimal.
 */
export function decimalTextSign(text: string): -1 | 0 | 1 | null {
  const digits = significantDigits(text);
  if (digits < 0) {
    return null;
  }
  if (digits === 0) {
    return 0;
  }
  return text.charCodeAt(0) === MINUS ? -1 : 1;
}

/**
 * Digits after the leading zeros (trailing zeros included), or -1 when the
 * text is not a plain decimal.
 */
function significantDigits(text: string): number {
  const start = text.charCodeAt(0) === MINUS ? 1 : 0;
  let digits = 0;
  let seenDigit = false;
  let dotAt = -1;
  for (let i = start; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === DOT) {
      if (dotAt >= 0 || !seenDigit) {
        return -1;
      }
      dotAt = i;
    } else if (code >= ZERO && code <= NINE) {
      seenDigit = true;
      if (digits > 0 || code !== ZERO) {
        digits += 1;
      }
    } else {
      return -1;
    }
  }
  return seenDigit && dotAt !== text.length - 1 ? digits : -1;
}
