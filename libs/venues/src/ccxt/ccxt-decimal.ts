import Big from 'big.js';

/**
 * A ccxt number as an exact decimal string. ccxt parses venue strings into
 * JS numbers; `String(n)` gives back the shortest text of that number, which
 * big.js reads exactly, so no float arithmetic happens on the way.
 */
export function decimal(value: number | string | undefined | null): string | undefined {
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  return new Big(String(value)).toFixed();
}

/** A number the payload must carry, as a decimal string. */
export const required = (value: number | string | undefined, what: string): string => {
  const parsed = decimal(value);
  if (parsed === undefined) {
    throw new Error(`ccxt payload lacks ${what}`);
  }
  return parsed;
};

/** An id the payload must carry. */
export const text = (value: string | undefined, what: string): string => {
  if (value === undefined || value === '') {
    throw new Error(`ccxt payload lacks ${what}`);
  }
  return value;
};
