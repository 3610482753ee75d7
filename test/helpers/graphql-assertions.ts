import { expect } from 'vitest';
import type { TestApp } from './test-app';

/** The parsed answer of a GraphQL operation. */
export type GraphqlAnswer = Awaited<ReturnType<TestApp['graphql']>>;

/** No error of the answer carries a stack trace, a source location or SQL. */
export function expectNoLeak(res: GraphqlAnswer): void {
  const text = JSON.stringify(res.errors ?? []);
  expect(text).not.toMatch(/stacktrace/i);
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
  expect(text).not.toMatch(/\b(select|insert into|update .* set|delete from)\b/i);
}

/** A refused operation: exactly one error with this code (and message), no data, nothing leaked. */
export function expectGraphqlError(res: GraphqlAnswer, code: string, message?: string | RegExp): void {
  expect(res.errors, JSON.stringify(res)).toHaveLength(1);
  expect(res.errors![0].extensions?.code, JSON.stringify(res.errors)).toBe(code);
  if (typeof message === 'string') expect(res.errors![0].message).toBe(message);
  else if (message) expect(res.errors![0].message).toMatch(message);
  expect(res.data ?? null).toBeNull();
  expectNoLeak(res);
}

/** A successful operation (no errors, HTTP 200); returns its data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectGraphqlData(res: GraphqlAnswer): any {
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.statusCode).toBe(200);
  return res.data;
}
