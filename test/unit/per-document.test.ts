import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { perDocument } from '../../src/graphql/per-document';

describe('perDocument', () => {
  it('works a value out once per document and key, and keeps at most the given number of keys a document', () => {
    const cache = perDocument<string, number>(2);
    const [a, b] = [parse('{ a }'), parse('{ a }')];
    let made = 0;
    const make = () => ++made;
    expect(cache(a, 'x', make)).toBe(1);
    expect(cache(a, 'x', make)).toBe(1);
    expect(cache(b, 'x', make)).toBe(2); // another parsed document, even of the same text
    expect(cache(a, 'y', make)).toBe(3);
    expect(cache(a, 'z', make)).toBe(4); // a third key: the document's values start over
    expect(cache(a, 'x', make)).toBe(5);
    expect(cache(a, 'z', make)).toBe(4);
  });

  it('keeps nothing when working a value out fails', () => {
    const cache = perDocument<string, number>(2);
    const document = parse('{ a }');
    expect(() =>
      cache(document, 'x', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(cache(document, 'x', () => 7)).toBe(7);
  });
});
