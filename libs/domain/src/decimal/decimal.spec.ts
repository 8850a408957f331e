import Big from 'big.js';
import {
  InvalidDecimalError,
  formatDecimal,
  isDecimalString,
  isNonNegativeDecimalString,
  isPositiveDecimalString,
  parseDecimal,
  parseNonNegativeDecimal,
  parsePositiveDecimal,
} from './decimal';

describe('decimal strings', () => {
  it.each(['0', '1', '-1', '0.5', '12.3400', '-0.000001', '123456789012345678901234567890.123'])(
    'accepts %s',
    (value) => expect(isDecimalString(value)).toBe(true),
  );

  it.each([
    '',
    ' 1',
    '1 ',
    '+1',
    '01',
    '.5',
    '5.',
    '1e3',
    '1E-3',
    '0x10',
    'NaN',
    'Infinity',
    '1,5',
    '--1',
    '1.2.3',
    '1'.repeat(65),
  ])('rejects %j', (value) => expect(isDecimalString(value)).toBe(false));

  it.each([1, 1.5, null, undefined, {}, ['1'], true])('rejects the non-string %j', (value) =>
    expect(isDecimalString(value)).toBe(false),
  );

  it('tells positive and non-negative apart', () => {
    expect(isPositiveDecimalString('0')).toBe(false);
    expect(isPositiveDecimalString('-0')).toBe(false);
    expect(isPositiveDecimalString('0.00000001')).toBe(true);
    expect(isNonNegativeDecimalString('0')).toBe(true);
    expect(isNonNegativeDecimalString('-0.1')).toBe(false);
  });

  it('parses to exact Big values', () => {
    expect(parseDecimal('-12.50').eq(new Big('-12.5'))).toBe(true);
    expect(parsePositiveDecimal('0.1').plus(parsePositiveDecimal('0.2')).toFixed()).toBe('0.3');
    expect(parseNonNegativeDecimal('0').toFixed()).toBe('0');
  });

  it('throws a typed error naming what was expected', () => {
    expect(() => parsePositiveDecimal('0')).toThrow(InvalidDecimalError);
    expect(() => parsePositiveDecimal('0')).toThrow('expected a positive decimal string, got "0"');
    expect(() => parseNonNegativeDecimal('-1')).toThrow(InvalidDecimalError);
    expect(() => parseDecimal(1.5)).toThrow('expected a decimal string, got 1.5');
  });

  it('formats in plain notation that parses back', () => {
    expect(formatDecimal(new Big('0.0000000001'))).toBe('0.0000000001');
    expect(formatDecimal(new Big('1e25'))).toBe('10000000000000000000000000');
    expect(formatDecimal(new Big('-0'))).toBe('0');
    expect(isDecimalString(formatDecimal(new Big('1e-9')))).toBe(true);
  });
});
