import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isDecimalString, isNonNegativeDecimalString, isPositiveDecimalString } from '@sts/domain';

const decimalRule =
  (name: string, test: (value: unknown) => boolean, what: string) =>
  (options?: ValidationOptions) =>
    ValidateBy(
      {
        name,
        validator: {
          validate: (value) => test(value),
          defaultMessage: (args) => `${args?.property} must be ${what} as a string (e.g. "0.5")`,
        },
      },
      options,
    );

/** Decimal strings exactly as the domain parses them: no exponent, no float on the wire. */
export const IsDecimal = decimalRule('isDecimal', isDecimalString, 'a decimal');
export const IsPositiveDecimal = decimalRule(
  'isPositiveDecimal',
  isPositiveDecimalString,
  'a positive decimal',
);
export const IsNonNegativeDecimal = decimalRule(
  'isNonNegativeDecimal',
  isNonNegativeDecimalString,
  'a non-negative decimal',
);
