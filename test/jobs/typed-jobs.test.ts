import { Logger, runOnce } from 'graphile-worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { CRON_ITEMS } from '../../jobs/crontab';
import { addJobFor, enqueue } from '../../jobs/enqueue';
import { isTaskName, TASK_PAYLOADS } from '../../jobs/payloads';
import { createTasks } from '../../jobs/tasks';
import { taskDepsOf } from '../../jobs/worker';
import { loadConfig } from '../../src/config';
import { raw, sql } from '../../src/db/tenant-sql';
import { secretsFrom } from '../../src/secrets';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** The worker's tasks; the malformed payloads below never reach their dependencies. */
const TASKS = createTasks(taskDepsOf({ config: loadConfig({ NODE_ENV: 'test' }), secrets: secretsFrom('x'.repeat(32)), orm: null as never }));

interface JobRow {
  task_identifier: string;
  payload: unknown;
  key: string | null;
  max_attempts: number;
  attempts: number;
  due_in_s: number;
}

/**
 * Issue 21 §3: jobs are queued through one typed helper (enqueue, or addJobFor inside a batched
 * statement) from the task table, and every task checks its payload with the same schema; a
 * malformed payload is dropped with an error in the log, never retried.
 */
describe('typed jobs', () => {
  let t: TestApp;
  let pool: pg.Pool;

  beforeAll(async () => {
    t = await buildTestApp();
    pool = new pg.Pool({ connectionString: t.db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  // The jobs view of graphile-worker 0.17 has no payload column: its private tables, read only.
  const jobs = async (key?: string) =>
    (
      await pool.query<JobRow>(
        `select t.identifier as task_identifier, j.payload, j.key, j.max_attempts, j.attempts, extract(epoch from j.run_at - now())::float8 as due_in_s
           from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where $1::text is null or j.key = $1 order by j.id`,
        [key ?? null],
      )
    ).rows;
  const clearJobs = () => pool.query('delete from graphile_worker._private_jobs');

  describe('enqueue', () => {
    it('queues the job in the caller’s EntityManager transaction, with its options', async () => {
      await t.orm.em.fork().transactional((tx) => enqueue(tx, 'run_export', { organizationId: 3, exportJobId: 7 }, { jobKey: 'typed-1', maxAttempts: 3 }));
      expect(await jobs('typed-1')).toEqual([
        expect.objectContaining({ task_identifier: 'run_export', payload: { organizationId: 3, exportJobId: 7 }, max_attempts: 3, attempts: 0 }),
      ]);
    });

    it('leaves no job when the transaction rolls back', async () => {
      const failed = t.orm.em.fork().transactional(async (tx) => {
        await enqueue(tx, 'run_export', { organizationId: 3, exportJobId: 8 }, { jobKey: 'typed-2' });
        throw new Error('the change failed');
      });
      await expect(failed).rejects.toThrow('the change failed');
      expect(await jobs('typed-2')).toEqual([]);
    });

    it('on a pg client: due after the delay by the database’s clock, and one job per key (the later call moves it)', async () => {
      const client = await pool.connect();
      try {
        await enqueue(client, 'deliver_webhook', { organizationId: 4, deliveryId: 9 }, { jobKey: 'typed-3', delayMs: 60_000 });
        const [first] = await jobs('typed-3');
        expect(first.due_in_s).toBeGreaterThan(55);
        expect(first.due_in_s).toBeLessThanOrEqual(60);
        await enqueue(client, 'deliver_webhook', { organizationId: 4, deliveryId: 9 }, { jobKey: 'typed-3', delayMs: 0 });
      } finally {
        client.release();
      }
      const moved = await jobs('typed-3');
      expect(moved).toHaveLength(1);
      expect(moved[0].due_in_s).toBeLessThanOrEqual(0);
      expect(moved[0].payload).toEqual({ organizationId: 4, deliveryId: 9 });
    });

    it('refuses a payload its task would refuse, and queues nothing', async () => {
      const before = (await jobs()).length;
      const em = t.orm.em.fork();
      await expect(enqueue(em, 'deliver_webhook', { organizationId: 0, deliveryId: 9 })).rejects.toThrow(ZodError);
      await expect(enqueue(em, 'run_export', { organizationId: 1 } as never)).rejects.toThrow(/exportJobId/);
      await expect(enqueue(em, 'deliver_webhook', { organizationId: 1, deliveryId: 1.5 })).rejects.toThrow(/deliveryId/);
      expect((await jobs()).length).toBe(before);
    });
  });

  describe('addJobFor (batched statements)', () => {
    it('queues one job per row, each payload one the task’s schema accepts as is', async () => {
      const statement = sql`select ${addJobFor(
        'deliver_webhook',
        { organizationId: raw('s.org'), deliveryId: raw('s.id') },
        { jobKey: sql`${'typed-batch-'}::text || s.id`, runAt: raw(`now() + interval '1 hour'`) },
      )} from (values (5, 11), (6, 12)) s(org, id)`;
      await pool.query(statement.pgText, [...statement.values]);
      const queued = [...(await jobs('typed-batch-11')), ...(await jobs('typed-batch-12'))];
      expect(queued.map((j) => j.payload)).toEqual([
        { organizationId: 5, deliveryId: 11 },
        { organizationId: 6, deliveryId: 12 },
      ]);
      for (const job of queued) {
        expect(TASK_PAYLOADS.deliver_webhook.parse(job.payload)).toEqual(job.payload);
        expect(job.due_in_s).toBeGreaterThan(3500);
      }
    });

    it('refuses a field the task’s payload does not have', () => {
      const columns = { organizationId: raw('1'), deliveryId: raw('2'), exportJobId: raw('3') };
      expect(() => addJobFor('deliver_webhook', columns)).toThrow('deliver_webhook has no payload field exportJobId');
    });
  });

  describe('tasks check their payload', () => {
    const logs: string[] = [];
    const logger = new Logger(() => (level, message) => {
      logs.push(`${level}: ${message}`);
    });

    /** Queues a job by hand, as an operator or an older producer could, and lets one worker run what is due. */
    async function runByHand(task: string, payload: unknown): Promise<void> {
      await pool.query(`select graphile_worker.add_job($1, $2::json)`, [task, JSON.stringify(payload)]);
      await runOnce({ connectionString: t.db.url, taskList: TASKS, logger, noHandleSignals: true, concurrency: 1 });
      // On a loaded machine runOnce has returned with the job still locked (attempts 1, not yet
      // completed): wait for its completion before asserting (a failed job stays, and fails below).
      for (let waited = 0; waited < 5_000 && (await lockedJobs()) > 0; waited += 100) await new Promise((done) => setTimeout(done, 100));
    }
    const lockedJobs = async () => Number((await pool.query<{ n: string }>('select count(*) as n from graphile_worker._private_jobs where locked_at is not null')).rows[0].n);

    it.each([
      ['deliver_webhook', { organizationId: '1', deliveryId: 2 }, 'organizationId'],
      ['deliver_webhook', { organizationId: 1 }, 'deliveryId'],
      ['deliver_webhook', [1, 2], 'payload'],
      ['run_export', { organizationId: 1, exportJobId: -4 }, 'exportJobId'],
      ['run_export', { organizationId: null, exportJobId: 4 }, 'organizationId'],
      ['delete_old_webhook_deliveries', { _cron: { ts: 5 } }, '_cron.ts'],
    ])('%s with %j: logged with the field, dropped, not retried', async (task, payload, field) => {
      await clearJobs();
      logs.length = 0;
      await runByHand(task, payload);
      // Completed without running its handler: no job is left to retry (a failed one would stay with its error).
      expect(await jobs()).toEqual([]);
      const refusal = logs.filter((line) => line.startsWith('error: ') && line.includes(`${task}: job `));
      expect(refusal).toHaveLength(1);
      expect(refusal[0]).toContain('dropped without retry, malformed payload');
      expect(refusal[0]).toContain(`${field}: `);
      expect(logs.some((line) => line.includes('Failed task'))).toBe(false);
    });

    it('a well-formed cron payload runs the task', async () => {
      await clearJobs();
      logs.length = 0;
      await runByHand('delete_old_webhook_deliveries', { _cron: { ts: new Date().toISOString(), backfilled: false } });
      expect(await jobs()).toEqual([]);
      expect(logs.some((line) => line.startsWith('info: Deleted 0 webhook deliveries'))).toBe(true);
    });
  });

  it('every cron item names a task of the table, and the worker runs exactly the table’s tasks', () => {
    for (const item of CRON_ITEMS) expect(isTaskName(item.task), item.task).toBe(true);
    expect(Object.keys(TASKS).sort()).toEqual(Object.keys(TASK_PAYLOADS).sort());
  });
});

/** Never called: tsc (`npm test` runs it first) refuses each marked line, so the table types every producer. */
export function typeChecks(tx: Parameters<typeof enqueue>[0]): void {
  // @ts-expect-error a task that is not in the table
  void enqueue(tx, 'send_email', {});
  // @ts-expect-error a missing payload field
  void enqueue(tx, 'run_export', { organizationId: 1 });
  // @ts-expect-error a payload field of the wrong type
  void enqueue(tx, 'deliver_webhook', { organizationId: '1', deliveryId: 2 });
  // @ts-expect-error a column missing from a batched job
  void addJobFor('deliver_webhook', { organizationId: raw('1') });
}
