import Big from 'big.js';

/**
 * Decimal strings on the wire: an optional minus, digits without leading zeros,
 * an optional fraction. No exponent, no `+`, no whitespace, no `.5` or `5.`:
 * a decimal quantity must mean exactly one thing to every reader of the API.
 */
export const DECIMAL_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** Longest decimal string accepted, so a hostile body cannot make us parse megabytes. */
export const MAX_DECIMAL_STRING_LENGTH = 64;

export class InvalidDecimalError extends Error {
  readonly code = 'invalid_decimal';

  constructor(
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`expected ${expected}, got ${JSON.stringify(value) ?? String(value)}`);
    this.name = 'InvalidDecimalError';
  }
}

export const isDecimalString = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length <= MAX_DECIMAL_STRING_LENGTH &&
  DECIMAL_PATTERN.test(value);

export const isPositiveDecimalString = (value: unknown): value is string =>
  isDecimalString(value) && new Big(value).gt(0);

export const isNonNegativeDecimalString = (value: unknown): value is string =>
  isDecimalString(value) && new Big(value).gte(0);

export const parseDecimal = (value: unknown): Big => {
  if (!isDecimalString(value)) {
    throw new InvalidDecimalError(value, 'a decimal string');
  }
  return new Big(value);
};

export const parsePositiveDecimal = (value: unknown): Big => {
  if (!isPositiveDecimalString(value)) {
    throw new InvalidDecimalError(value, 'a positive decimal string');
  }
  return new Big(value);
};

export const parseNonNegativeDecimal = (value: unknown): Big => {
  if (!isNonNegativeDecimalString(value)) {
    throw new InvalidDecimalError(value, 'a non-negative decimal string');
  }
  return new Big(value);
};

/**
 * The wire form of a Big: plain notation (never `1e-7`, which our own
 * parser rejects) and no negative zero.
 */
export const formatDecimal = (value: Big): string => {
  const text = value.toFixed();
  return text === '-0' ? '0' : text;
};
