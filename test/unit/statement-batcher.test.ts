import { describe, expect, it } from 'vitest';
import type { SqlClient, WithClient } from '../../src/db/sql-client';
import { MAX_BATCH, StatementBatcher } from '../../src/domains/webhooks/statement-batcher';

/**
 * StatementBatcher without a database: an item asked for while no statement runs goes at once,
 * items asked for meanwhile go together in the next statement, items with the same key never
 * share a statement, a batch is at most MAX_BATCH items, and a failed statement fails its own
 * items only.
 */

const client = {} as SqlClient;
const lend: WithClient = (work) => work(client);

/** A batcher whose statements wait until released; it records the items of each statement. */
function controlledBatcher(failWhen: (items: number[]) => boolean = () => false) {
  const statements: number[][] = [];
  const releases: Array<() => void> = [];
  const batcher = new StatementBatcher<number, string>(
    (n) => n % 1000,
    async (_client, items) => {
      statements.push(items);
      await new Promise<void>((resolve) => releases.push(resolve));
      if (failWhen(items)) throw new Error(`statement of ${items.join(',')} failed`);
      return items.map((n) => `done ${n}`);
    },
  );
  const releaseNext = async () => {
    while (releases.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    releases.shift()!();
  };
  return { batcher, statements, releaseNext };
}

describe('StatementBatcher', () => {
  it('sends the first item at once and those asked for meanwhile together, each getting its own result', async () => {
    const { batcher, statements, releaseNext } = controlledBatcher();
    const first = batcher.run(lend, 1);
    const others = [2, 3, 4].map((n) => batcher.run(lend, n));
    expect(statements).toEqual([[1]]);
    await releaseNext();
    expect(await first).toBe('done 1');
    await releaseNext();
    expect(await Promise.all(others)).toEqual(['done 2', 'done 3', 'done 4']);
    expect(statements).toEqual([[1], [2, 3, 4]]);
  });

  it('never puts two items with the same key in one statement', async () => {
    const { batcher, statements, releaseNext } = controlledBatcher();
    // Keys are n % 1000: 2, 1002 and 2002 share one.
    const all = [1, 2, 1002, 3, 2002].map((n) => batcher.run(lend, n));
    for (let i = 0; i < 4; i += 1) await releaseNext();
    expect(await Promise.all(all)).toEqual(['done 1', 'done 2', 'done 1002', 'done 3', 'done 2002']);
    expect(statements).toEqual([[1], [2, 3], [1002], [2002]]);
  });

  it('sends at most MAX_BATCH items per statement', async () => {
    const { batcher, statements, releaseNext } = controlledBatcher();
    const all = Array.from({ length: MAX_BATCH + 3 }, (_, i) => batcher.run(lend, i));
    for (let i = 0; i < 3; i += 1) await releaseNext();
    await Promise.all(all);
    expect(statements.map((items) => items.length)).toEqual([1, MAX_BATCH, 2]);
  });

  it('a failed statement rejects its own items; the next batch still runs', async () => {
    const { batcher, statements, releaseNext } = controlledBatcher((items) => items.includes(2));
    const first = batcher.run(lend, 1);
    const failing = [2, 3].map((n) => batcher.run(lend, n).catch((err: Error) => err.message));
    await releaseNext();
    await first;
    const after = batcher.run(lend, 4);
    await releaseNext();
    expect(await Promise.all(failing)).toEqual(['statement of 2,3 failed', 'statement of 2,3 failed']);
    await releaseNext();
    expect(await after).toBe('done 4');
    expect(statements).toEqual([[1], [2, 3], [4]]);
  });
});
