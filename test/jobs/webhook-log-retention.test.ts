import { Logger, quickAddJob, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_ITEMS } from '../../jobs/crontab';
import { createTasks } from '../../jobs/tasks';
import { DELIVERY_RETENTION_DAYS } from '../../jobs/tasks/delete_old_webhook_deliveries';
import { taskDepsOf } from '../../jobs/worker';
import { secretsFrom } from '../../src/secrets';
import { createWorkspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** The daily clean-up of the webhook delivery log: finished deliveries older than 30 days go, the rest stay. */
describe('delete_old_webhook_deliveries', () => {
  let t: TestApp;
  const logger = new Logger(() => () => undefined);
  beforeAll(async () => {
    t = await buildTestApp({}, { resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] });
  });
  afterAll(() => t.close());

  const sql = <T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    t.orm.em.fork().getConnection().execute<T>(query, params);

  it('is scheduled daily and keeps the log 30 days', () => {
    expect(DELIVERY_RETENTION_DAYS).toBe(30);
    expect(CRON_ITEMS).toContainEqual(expect.objectContaining({ task: 'delete_old_webhook_deliveries', match: '41 3 * * *' }));
  });

  it('deletes sent and dead deliveries older than 30 days, and nothing else; a second run changes nothing', async () => {
    const ws = await createWorkspace(t);
    const hook = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'Log', url: 'https://log.example.test/x' } });
    expect(hook.statusCode, hook.body).toBe(201);
    const add = async (status: string, ageDays: number) => {
      const [row] = await sql<{ id: number }[]>(
        `insert into webhook_delivery (organization_id, webhook_id, event_id, event_type, event_data, event_at, status, attempts, max_attempts, created_at)
         values (?, ?, 'evt_' || md5(random()::text), 'order.created', '{}', now(), ?, 1, 12, now() - make_interval(days => ?)) returning id`,
        [ws.organizationId, hook.json().data.id, status, ageDays],
      );
      return row.id;
    };
    const kept = [await add('sent', 29), await add('dead', 29), await add('pending', 45), await add('sending', 45)];
    const removed = [await add('sent', 31), await add('dead', 60)];
    const tasks = createTasks(taskDepsOf({ config: t.config, secrets: secretsFrom(t.config.jwtSecret!), orm: t.orm }));
    const run = async () => {
      await quickAddJob({ connectionString: t.db.url, logger }, 'delete_old_webhook_deliveries', {});
      await runOnce({ connectionString: t.db.url, taskList: tasks, logger, noHandleSignals: true, concurrency: 1 });
    };
    await run();
    const ids = async () => (await sql<{ id: number }[]>('select id from webhook_delivery order by id')).map((r) => r.id);
    expect(await ids()).toEqual(kept);
    expect(removed.some((id) => kept.includes(id))).toBe(false);
    await run();
    expect(await ids()).toEqual(kept);
  });
});
