import Big from 'big.js';
import fc from 'fast-check';
import { compare, signOf } from './compare';
import { decimalKey, decimalTextSign } from './decimal-key';

/** Plain decimal texts: any sign, leading and trailing zeros, up to 24 digits on each side. */
const digitsArb = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((d) => d.join(''));

const decimalTextArb = fc
  .tuple(fc.boolean(), digitsArb(1, 24), fc.option(digitsArb(1, 24)))
  .map(
    ([negative, whole, fraction]) =>
      `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`,
  );

/** Two prices of one book: a shared leading part, then a last digit or two apart (or equal, or longer). */
const nearPairArb = fc
  .tuple(
    decimalTextArb,
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 0, max: 99 }),
    fc.nat(3),
  )
  .map(([base, x, y, zeros]) => {
    const stem = base.includes('.') ? base : `${base}.`;
    return [`${stem}${x}`, `${stem}${y}${'0'.repeat(zeros)}`] as const;
  });

/** Digits that count toward a double's precision in this text: after the leading zeros, trailing ones included. */
const significantDigits = (text: string): number =>
  text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;

describe('decimal keys', () => {
  it('order and equal exactly as the decimals do, whenever both have a key', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(decimalTextArb, decimalTextArb), nearPairArb), ([a, b]) => {
        const keyA = decimalKey(a);
        const keyB = decimalKey(b);
        fc.pre(!Number.isNaN(keyA) && !Number.isNaN(keyB));
        expect(Math.sign(keyA - keyB) || 0).toBe(compare(new Big(a), new Big(b)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('exist for every plain decimal of at most 15 digits, and for none of more', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          decimalTextArb,
          nearPairArb.map(([a]) => a),
        ),
        (text) => {
          expect(Number.isNaN(decimalKey(text))).toBe(significantDigits(text) > 15);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('are NaN for what is not a plain decimal', () => {
    for (const text of [
      '',
      '-',
      '.',
      '.5',
      '5.',
      '1.2.3',
      '1e-7',
      '+1',
      ' 1',
      '1 ',
      '0x10',
      'NaN',
      '--1',
    ]) {
      expect(decimalKey(text)).toBeNaN();
      expect(decimalTextSign(text)).toBeNull();
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        if (!/^-?\d+(\.\d+)?$/.test(text)) {
          expect(decimalKey(text)).toBeNaN();
          expect(decimalTextSign(text)).toBeNull();
        }
      }),
    );
  });

  it('give every plain decimal the sign big.js gives it, zeros of any length included', () => {
    fc.assert(
      fc.property(decimalTextArb, (text) => {
        expect(decimalTextSign(text)).toBe(signOf(new Big(text)));
      }),
      { numRuns: 20_000 },
    );
    expect(decimalTextSign('-0.000')).toBe(0);
    expect(decimalTextSign('000')).toBe(0);
  });
});
