import { applyDecorators } from '@nestjs/common';
import Big from 'big.js';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import {
  formatDecimal,
  isDecimalString,
  isNonNegativeDecimalString,
  isPositiveDecimalString,
} from '@sts/domain';

/**
 * The one spelling a decimal is stored and echoed in: what big.js prints for
 * it, without trailing zeros or a sign on zero ("1.50" -> "1.5", "-0" -> "0").
 * Values that are not decimal strings pass through untouched for the rule to refuse.
 */
export const canonicalDecimal = (value: unknown): unknown =>
  isDecimalString(value) ? formatDecimal(new Big(value)) : value;

const decimalRule =
  (name: string, test: (value: unknown) => boolean, what: string) =>
  (options?: ValidationOptions): PropertyDecorator =>
    applyDecorators(
      Transform(({ value }) => canonicalDecimal(value)),
      ValidateBy(
        {
          name,
          validator: {
            validate: (value) => test(value),
            defaultMessage: (args) => `${args?.property} must be ${what} as a string (e.g. "0.5")`,
          },
        },
        options,
      ),
    );

/**
 * Decimal strings exactly as the domain parses them (no '+', no exponent, no
 * leading zeros, at most 64 characters), normalized to canonicalDecimal
 * before the rule runs: "-0" is 0, so it is a non-negative but not a positive decimal.
 */
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
