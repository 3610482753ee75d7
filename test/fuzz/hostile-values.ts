import fc from 'fast-check';

/** The password every fixture user has (test/helpers/fixtures.ts), so password changes and sign-ins can succeed. */
export const FIXTURE_PASSWORD = 'password123';

/** One mebibyte of text: the body limit's size, so a field of it tests both the limit and the fields' own caps. */
export const ONE_MB = 1024 * 1024;

/** Numbers at and past every boundary a handler or the database has (int4, int8, 2^53, doubles). */
export const HOSTILE_NUMBERS = [
  0, -1, 1, -0, 0.5, -1.5, 1e20, -1e20, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 32, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 470_000_000_000_000_000,
  Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, 1e308, -1e308, 1e-7,
];

/** Strings that look like numbers, dates or SQL to a careless parser. */
const TRICKY_STRINGS = [
  '', ' ', '0', '-1', '1e20', '1e400', '-1e400', '470000000000000000', '1.5', '0x10', 'NaN', 'Infinity', '-Infinity', ' 1', '1 ', '01', '+1', '1,000',
  'null', 'undefined', 'true', '[]', '{}', '__proto__', 'constructor', '%', '_', '\\', "'", '"', "' or '1'='1", '--', '/*', ';',
  '2024-02-30', '0000-00-00', '9999-12-31', '1970-01-01', '2024-13-01', '+275760-09-13', '2024-01-01T00:00:00Z', 'today',
  '\u0000', 'a\u0000b', '\u0000\u0000\u0000', '\u0001\u0002\u001f\u007f', '\r\n', '\t', '\u0008', '\u001b[31m',
  '\ud800', '\udfff', 'a\ud800b', '\ufeff', '\u202e', '\u200b', '\uffff', '𝕳𝖊𝖑𝖑𝖔', '👩‍👩‍👧‍👦', 'Ω≈ç√∫', 'ﷺ', 'ǅ', 'İ', 'ß',
  '%00', '%E0%A4%A', '../../etc/passwd', '<script>alert(1)</script>', 'https://hooks.fuzz.test/', 'admin@example.test',
];

/** Huge strings, built once (each is the same 1 MB in memory, however often it is drawn). */
const HUGE_STRINGS = ['a'.repeat(ONE_MB), `${'\u0000'.repeat(16)}${'x'.repeat(ONE_MB - 16)}`, '€'.repeat(ONE_MB / 3), `1${'0'.repeat(ONE_MB - 1)}`];

/** A string with control characters, NUL among them, anywhere in it. */
const controlString = fc.string({
  unit: fc.oneof(fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), fc.constantFrom('\u007f', 'a', ' ')),
  maxLength: 12,
});

/** Any string a client could send: unicode (lone surrogates included), control characters, tricks, 1 MB. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
  { weight: 2, arbitrary: controlString },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 101, max: 5000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_STRINGS) },
);

/** Any number a JSON client could send, mostly at boundaries. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** A JSON value of any type: the "wrong type" for whatever field it lands in. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': null }, [[[[[]]]]]) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileNumber, fc.constantFrom('', '\u0000', 'a')), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', 'id', '$gt', '\u0000'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
);

/**
 * Identifiers for path parameters and id fields: boundaries, numbers spelt oddly, strings, and
 * the ids of existing rows (this workspace's and another's), which reach the handlers' lookups.
 */
export function hostileIdText(existingIds: readonly number[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...existingIds).map(String) },
    { weight: 3, arbitrary: fc.constantFrom('0', '-1', '1e20', '1e400', 'Infinity', '-Infinity', 'NaN', '470000000000000000', '2147483648', '9223372036854775808', '1.5', 'abc', '%00', '0x1', ' 1', '1%20', '%E0%A4%A', '..', '%2F', 'null') },
    { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(String) },
    { weight: 1, arbitrary: hostileString.filter((s) => s.length < 200 && s.length > 0).map(encodeURIComponentLoosely) },
  );
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) is sent percent-encoded as WTF-8 would be. */
export function encodeURIComponentLoosely(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s].map((c) => (/^[\ud800-\udfff]$/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}
