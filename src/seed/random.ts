import { createHash } from 'node:crypto';

/**
 * Hash-based pseudo-randomness: every value is a function of a key string, never of a running
 * generator, so the same seed gives the same data whatever order things are computed in. The SQL
 * side does the same with md5() of the same kind of keys (see orders-sql.ts).
 */
export class KeyedRandom {
  constructor(private readonly prefix: string) {}

  /** A uniform 32-bit unsigned integer for this key. */
  uint(key: string): number {
    return createHash('md5').update(`${this.prefix}:${key}`).digest().readUInt32BE(0);
  }

  /** An integer from 0 to n - 1. */
  below(key: string, n: number): number {
    return this.uint(key) % n;
  }

  /** An integer from min to max, both included. */
  between(key: string, min: number, max: number): number {
    return min + this.below(key, max - min + 1);
  }

  /** A number in [0, 1). */
  unit(key: string): number {
    return this.uint(key) / 2 ** 32;
  }

  /** True with probability p. */
  chance(key: string, p: number): boolean {
    return this.unit(key) < p;
  }

  /** One element of a non-empty list. */
  pick<T>(key: string, list: readonly T[]): T {
    return list[this.below(key, list.length)];
  }

  /** The list in an order that depends only on the key (sorted by each element's hash). */
  shuffle<T>(key: string, list: readonly T[]): T[] {
    return list
      .map((item, i) => ({ item, rank: this.uint(`${key}:${i}`), i }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((e) => e.item);
  }

  /** `count` distinct elements of the list (count is capped at its length). */
  sample<T>(key: string, list: readonly T[], count: number): T[] {
    return this.shuffle(key, list).slice(0, Math.min(count, list.length));
  }

  /** A string of `length` decimal digits. */
  digits(key: string, length: number): string {
    let out = '';
    for (let i = 0; out.length < length; i++) out += String(this.uint(`${key}:${i}`) % 1_000_000_000).padStart(9, '0');
    return out.slice(0, length);
  }

  /** `length` characters from the alphabet. */
  chars(key: string, length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.below(`${key}:${i}`, alphabet.length)];
    return out;
  }
}

/** Hex of md5(text): for ids and keys derived from the seed. */
export function md5Hex(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
