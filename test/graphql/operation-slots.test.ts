import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * GraphQL requests are executed at most as many at a time as the database pool has connections;
 * the others wait their turn before any work is done for them (see graphqlPlugin), and are all
 * answered.
 */
describe('GraphQL operations at a time', () => {
  let t: TestApp;
  let ws: Workspace;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it("runs no more operations at once than the database pool's size, and answers every one", async () => {
    const poolSize = t.orm.config.get('pool')!.max!;
    const orders = t.app.services.orders;
    const listRecords = orders.listRecords.bind(orders);
    let running = 0;
    let most = 0;
    orders.listRecords = async (...args) => {
      running += 1;
      most = Math.max(most, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return await listRecords(...args);
      } finally {
        running -= 1;
      }
    };
    try {
      const answers = await Promise.all(
        Array.from({ length: poolSize * 3 }, () => t.graphql('{ orders(limit: 5) { pageInfo { total } } }', {}, ws.token)),
      );
      expect(answers.map((a) => [a.statusCode, a.errors])).toEqual(answers.map(() => [200, undefined]));
      expect(answers.every((a) => (a.data as { orders: { pageInfo: { total: number } } }).orders.pageInfo.total === 0)).toBe(true);
      expect(most).toBe(poolSize);
    } finally {
      orders.listRecords = listRecords;
    }
  });
});
