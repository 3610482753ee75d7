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
    const listRows = orders.listRows.bind(orders);
    let running = 0;
    let most = 0;
    orders.listRows = async (...args) => {
      running += 1;
      most = Math.max(most, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return await listRows(...args);
      } finally {
        running -= 1;
      }
    };
    try {
      // Three workspaces: one alone may hold only half of the slots (see below), three fill them all.
      const workspaces = [ws, await createWorkspace(t), await createWorkspace(t)];
      const answers = await Promise.all(
        Array.from({ length: poolSize * 3 }, (_, i) => t.graphql('{ orders(limit: 5) { pageInfo { total } } }', {}, workspaces[i % 3].token)),
      );
      expect(answers.map((a) => [a.statusCode, a.errors])).toEqual(answers.map(() => [200, undefined]));
      expect(answers.every((a) => (a.data as { orders: { pageInfo: { total: number } } }).orders.pageInfo.total === 0)).toBe(true);
      expect(most).toBe(poolSize);
    } finally {
      orders.listRows = listRows;
    }
  });

  it('lets one workspace hold at most half of the slots; another workspace is answered meanwhile', async () => {
    const poolSize = t.orm.config.get('pool')!.max!;
    const share = Math.floor(poolSize / 2);
    const noisy = await createWorkspace(t);
    const orders = t.app.services.orders;
    const listRows = orders.listRows.bind(orders);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let noisyRunning = 0;
    let noisyMost = 0;
    orders.listRows = async (ctx, ...rest) => {
      if (ctx.organizationId !== noisy.organizationId) return listRows(ctx, ...rest);
      noisyRunning += 1;
      noisyMost = Math.max(noisyMost, noisyRunning);
      try {
        await held;
        return await listRows(ctx, ...rest);
      } finally {
        noisyRunning -= 1;
      }
    };
    try {
      const query = '{ orders(limit: 5) { pageInfo { total } } }';
      const flood = Array.from({ length: poolSize * 2 }, () => t.graphql(query, {}, noisy.token));
      // Wait until the noisy workspace's share is running (and held).
      for (let i = 0; i < 200 && noisyRunning < share; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(noisyRunning).toBe(share);

      // The other workspace is answered while the noisy one holds its share and has more waiting.
      const quiet = await t.graphql<{ orders: { pageInfo: { total: number } } }>(query, {}, ws.token);
      expect(quiet.statusCode).toBe(200);
      expect(quiet.data?.orders.pageInfo.total).toBe(0);
      expect(noisyRunning).toBe(share);

      release();
      const answers = await Promise.all(flood);
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      expect(noisyMost).toBe(share);
    } finally {
      release();
      orders.listRows = listRows;
    }
  });
});
