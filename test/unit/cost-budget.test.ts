import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessCostBudget, redisCostBudget } from '../../src/graphql/cost-budget';

const SETTINGS = { maximum: 1000, restoreRate: 100 };

describe('in-process cost budget', () => {
  it('refills at the restore rate up to the maximum, and refuses what does not fit without taking it', async () => {
    let clock = 0;
    const budget = inProcessCostBudget(SETTINGS, () => clock);
    expect(await budget.take('a', 800)).toEqual({ taken: true, status: { maximumAvailable: 1000, currentlyAvailable: 200, restoreRate: 100 }, retryAfterSeconds: 0 });
    // 500 asked, 200 there: 3 s until it holds enough (100 a second).
    expect(await budget.take('a', 500)).toMatchObject({ taken: false, retryAfterSeconds: 3, status: { currentlyAvailable: 200 } });
    clock += 2_500;
    expect((await budget.status('a')).currentlyAvailable).toBe(450);
    expect(await budget.take('a', 450)).toMatchObject({ taken: true, status: { currentlyAvailable: 0 } });
    clock += 60_000;
    expect((await budget.status('a')).currentlyAvailable).toBe(1000);
    // Another caller is untouched.
    expect((await budget.status('b')).currentlyAvailable).toBe(1000);
  });

  it('keeps adjustments between 0 and the maximum', async () => {
    const budget = inProcessCostBudget(SETTINGS, () => 0);
    await budget.take('a', 600);
    expect((await budget.adjust('a', 300)).currentlyAvailable).toBe(700);
    expect((await budget.adjust('a', 5000)).currentlyAvailable).toBe(1000);
    expect((await budget.adjust('a', -5000)).currentlyAvailable).toBe(0);
  });
});

describe.skipIf(!process.env.REDIS_URL)('cost budget in Redis', () => {
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  afterAll(() => redis?.disconnect());

  it('takes, refuses and adjusts like the in-process one, and forgets a full bucket', async () => {
    // A restore rate of 1 a second: nothing refills measurably within the test.
    const budget = redisCostBudget(redis!, `unit-${randomBytes(6).toString('hex')}`, { maximum: 1000, restoreRate: 1 });
    expect(await budget.take('a', 800)).toMatchObject({ taken: true, status: { maximumAvailable: 1000, currentlyAvailable: 200, restoreRate: 1 } });
    const refused = await budget.take('a', 500);
    expect(refused.taken).toBe(false);
    expect(refused.status.currentlyAvailable).toBe(200);
    expect(refused.retryAfterSeconds).toBe(300);
    expect((await budget.adjust('a', 300)).currentlyAvailable).toBe(500);
    expect((await budget.adjust('a', -9000)).currentlyAvailable).toBe(0);
    expect((await budget.adjust('a', 9000)).currentlyAvailable).toBe(1000);
    expect((await budget.status('b')).currentlyAvailable).toBe(1000);
  });
});
