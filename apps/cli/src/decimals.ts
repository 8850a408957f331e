/** Exact arithmetic on the API's decimal strings (canonical: no exponent, no leading `+`). */

/** A decimal string as an integer of `scale` decimals. */
const scaled = (value: string, scale: number): bigint => {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -units : units;
};

const scaleOf = (values: readonly string[]): number =>
  Math.max(0, ...values.map((value) => value.split('.')[1]?.length ?? 0));

/** An integer of `scale` decimals back to a canonical decimal string. */
function unscaled(units: bigint, scale: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${units < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** a - b, exactly; null when it is zero. */
export function decimalDifference(a: string, b: string): string | null {
  const scale = scaleOf([a, b]);
  const units = scaled(a, scale) - scaled(b, scale);
  return units === 0n ? null : unscaled(units, scale);
}

/** The sum of decimal strings, exactly. */
export function decimalSum(values: readonly string[]): string {
  const scale = scaleOf(values);
  return unscaled(
    values.reduce((sum, value) => sum + scaled(value, scale), 0n),
    scale,
  );
}
