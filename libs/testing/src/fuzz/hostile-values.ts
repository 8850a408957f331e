import fc from 'fast-check';

/**
 * Generators of what a hostile or broken client sends, shared by the
 * gateway's and the notifier's fuzz specs. Each is a fast-check arbitrary, so
 * a failure shrinks to a small case and replays from its seed.
 */

/** The seed of this run: FUZZ_SEED when set (replay), else a fresh one. Print it. */
export function fuzzSeed(env: Record<string, string | undefined> = process.env): number {
  const given = env['FUZZ_SEED'];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) {
      throw new Error(`FUZZ_SEED must be an integer, got ${given}`);
    }
    return seed;
  }
  return Math.floor(Math.random() * 0x7fffffff);
}

export const nestedObjectText = (depth: number): string =>
  '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
export const nestedArrayText = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** Strings that have broken parsers before: NUL, BOM, bidi overrides, lone surrogates, lookalike digits. */
export const TRICKY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  '\uDFFF\uD800',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  "' OR '1'='1",
  '"; DROP TABLE trades; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '../../../etc/passwd',
  '\\',
  '%',
  '%zz',
  '\r\n',
  '😀',
  '١٢٣',
  '１２３',
] as const;

/** Decimal strings and numbers that are not what they look like: signed zeros, non-finite, exponents, padding. */
export const TRICKY_DECIMALS = [
  '-0',
  '+0',
  '-0.0',
  '0.000',
  '+1',
  '1e3',
  '1E-7',
  '1e999',
  '-1e999',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '0b1',
  '1_000',
  ' 1',
  '1 ',
  '.5',
  '5.',
  '00.1',
  '--1',
  '1,5',
  '١',
  '9'.repeat(65),
  `0.${'0'.repeat(70)}1`,
  '99999999999999999999999999999999999999999999999999999999999999',
  '-99999999999999999999999999999999999999999999999999999999999999',
] as const;

/** Raw JSON number texts JSON.stringify can never produce (only a raw body carries them). */
export const RAW_NUMBER_TEXTS = [
  '-0',
  '1e999',
  '-1e999',
  '1E400',
  '0.1e1',
  '2147483648',
  '9007199254740993',
  '-2147483649',
  '1.0',
  '0e0',
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...TRICKY_STRINGS),
  fc.constantFrom(...TRICKY_DECIMALS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ maxLength: 10 }).map((text) => `${text}\u0000${text}`),
  fc.integer({ min: 200, max: 5000 }).map((length) => 'x'.repeat(length)),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    -0,
    0.1,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    1e308,
    Number.MIN_VALUE,
    -1,
    1e-7,
  ),
);

/** A key name a schema does not expect, prototype-polluting ones included. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    '',
    ' ',
    'user_id',
    'status',
    'id',
    '$where',
  ),
  fc.string({ minLength: 1, maxLength: 12 }).filter((key) => /^[\w$-]+$/.test(key)),
);

/** Any JSON value, from the wrong type to a deep structure (kept a little under the body depth limit). */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc
      .array(fc.tuple(hostileKey, tie('value')), { maxLength: 3 })
      .map((entries) => Object.fromEntries(entries)),
  ),
})).value;

/** Request bodies no JSON.stringify writes: broken JSON, prototype keys, depth bombs, odd encodings. */
export const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '[',
    'null',
    'true',
    '"text"',
    '123',
    '{"a":}',
    '{"a":1,}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":-0}',
    '{"a":1e999}',
    '\uFEFF{}',
    '{"a":1}{"b":2}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":"\\u0000"}',
    '{"a":"\\ud800"}',
    '{"a":"\\x41"}',
    nestedObjectText(3000),
    nestedArrayText(3000),
    nestedObjectText(17),
    `{"a":"${'x'.repeat(70_000)}"}`,
  ),
  fc.string({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

/** A path segment as a client would put it on the wire: percent-encoded, or raw and malformed. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(percentEncode),
  fc.constantFrom(
    '%',
    '%zz',
    '%00',
    '%ff%fe',
    '%c0%ae',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    'a%00b',
    '%E2%80%AE',
  ),
  fc.integer({ min: 90, max: 1500 }).map((length) => 'a'.repeat(length)),
);

/** encodeURIComponent, except that lone surrogates (which it refuses) become the bytes of U+FFFD. */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

/** A header value Node will put on the wire (it refuses control characters and anything past U+00FF). */
export const headerSafe = (value: string): string => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

export const hostileHeaderValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(headerSafe),
  fc.integer({ min: 17_000, max: 40_000 }).map((length) => 'h'.repeat(length)),
);
