import { createHash, randomBytes } from 'node:crypto';
import { Logger, quickAddJob, runMigrations, runOnce, type TimestampDigest } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_ITEMS, parsedCronItems } from '../../jobs/crontab';
import { createTasks } from '../../jobs/tasks';
import { loadConfig } from '../../src/config';
import { taskDepsOf } from '../../jobs/worker';
import { secretsFrom } from '../../src/secrets';
import { EXPIRED_CODE_RETENTION_DAYS } from '../../jobs/tasks/delete_expired_sign_in_codes';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** The worker's tasks (their dependencies are unused here, so no database is opened for them). */
const TASKS = createTasks(taskDepsOf({ config: loadConfig({ NODE_ENV: 'test' }), secrets: secretsFrom('x'.repeat(32)), orm: null as never }));

/**
 * The cron task delete_expired_sign_in_codes, run for real through graphile-worker against the
 * test database: one-time codes whose expiry is more than 7 days past are deleted (in every
 * workspace), younger ones are kept, spent nonces go once their expiry has passed, and a second
 * run changes nothing. Also: the crontab schedules the task.
 */

type User = Awaited<ReturnType<typeof createUser>>;

describe('delete_expired_sign_in_codes', () => {
  let t: TestApp;
  let ws: Workspace;
  const logs: string[] = [];
  const logger = new Logger(() => (level, message) => {
    logs.push(`${level}: ${message}`);
  });

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Cleanup Dairy');
  });
  afterAll(() => t.close());

  const sql = <T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    t.orm.em.fork().getConnection().execute<T>(query, params);
  const post = (url: string, payload: Record<string, unknown>, token?: string) =>
    t.request({ method: 'POST', url: `/api/v1${url}`, payload, token });

  /** Issues an OTP, a magic link and a desktop code for the user (the invite came with createUser). */
  async function issueCodes(user: User): Promise<Record<string, number>> {
    expect((await post('/auth/otp/request', { phone: user.body.primary_contact_number })).statusCode).toBe(200);
    expect((await post('/auth/magic-link/request', { email: user.body.official_email })).statusCode).toBe(200);
    const stateHash = createHash('sha256').update(randomBytes(32)).digest('base64url');
    expect((await post('/auth/desktop/code', { state_hash: stateHash }, user.token)).statusCode).toBe(201);
    // The OTP and the link are issued in the background (the answers take the same time for unknown accounts).
    await t.settled();
    const rows = await sql<{ id: number; purpose: string }[]>('select id, purpose from sign_in_code where user_id = ?', [user.id]);
    const ids = Object.fromEntries(rows.map((r) => [r.purpose, r.id]));
    expect(Object.keys(ids).sort()).toEqual(['desktop', 'invite', 'magic_link', 'otp']);
    return ids;
  }

  /** Moves a code's expiry to `now() + interval`, e.g. '-8 days'. */
  const expireAt = (id: number, interval: string) =>
    sql(`update sign_in_code set expires_at = now() + ?::interval where id = ?`, [interval, id]);

  const codeIds = async () => (await sql<{ id: number }[]>('select id from sign_in_code order by id')).map((r) => r.id);
  const nonces = async () => (await sql<{ nonce: string }[]>('select nonce from spent_nonce order by nonce')).map((r) => r.nonce);
  const pendingJobs = async () =>
    sql<{ task_identifier: string; attempts: number; last_error: string | null }[]>(
      'select task_identifier, attempts, last_error from graphile_worker.jobs',
    );

  /** Queues the task and lets one worker run every due job, as the cron would. */
  async function runTask(): Promise<void> {
    const connectionString = t.db.url;
    await runMigrations({ connectionString, logger });
    await quickAddJob({ connectionString, logger }, 'delete_expired_sign_in_codes', {});
    expect(await pendingJobs()).toEqual([expect.objectContaining({ task_identifier: 'delete_expired_sign_in_codes' })]);
    await runOnce({ connectionString, taskList: TASKS, logger, noHandleSignals: true, concurrency: 1 });
    // The job completed (a failed job would stay queued with its error).
    expect(await pendingJobs()).toEqual([]);
  }

  describe('running the task through graphile-worker', () => {
    let keptCodes: number[];
    let deletedCodes: number[];
    let allCodesBefore: number[];

    beforeAll(async () => {
      const [alice, bob] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
      const carol = await createUser(t, await createWorkspace(t, 'Other Dairy'), UserType.RETAILER);
      const a = await issueCodes(alice);
      const b = await issueCodes(bob);
      const c = await issueCodes(carol);

      await expireAt(a.invite, '-8 days');
      await expireAt(a.otp, '-7 days -1 hour'); // just past the 7 days kept
      await expireAt(a.magic_link, '-6 days');
      await expireAt(b.otp, '-6 days -23 hours'); // just inside the 7 days
      await expireAt(b.magic_link, '-30 days');
      await sql('update sign_in_code set used_at = now() - interval \'30 days\' where id = ?', [b.magic_link]);
      await expireAt(c.invite, '-8 days'); // another workspace: the clean-up is not tenant-scoped
      await expireAt(c.otp, '-1 minute'); // expired, but only just
      // a.desktop, b.invite, b.desktop, c.magic_link, c.desktop keep their future expiry.

      deletedCodes = [a.invite, a.otp, b.magic_link, c.invite];
      keptCodes = [a.magic_link, a.desktop, b.invite, b.otp, b.desktop, c.otp, c.magic_link, c.desktop];
      allCodesBefore = await codeIds();
      expect(allCodesBefore).toEqual(expect.arrayContaining([...deletedCodes, ...keptCodes]));

      await sql('delete from spent_nonce');
      await sql(
        `insert into spent_nonce (nonce, expires_at) values
           ('past-second', now() - interval '1 second'), ('past-day', now() - interval '1 day'),
           ('future-minute', now() + interval '1 minute'), ('future-day', now() + interval '1 day')`,
      );
      logs.length = 0;
      await runTask();
    });

    it(`deletes exactly the codes that expired more than ${EXPIRED_CODE_RETENTION_DAYS} days ago, in every workspace`, async () => {
      const remaining = await codeIds();
      expect(remaining).toEqual(allCodesBefore.filter((id) => !deletedCodes.includes(id)));
      expect(remaining).toEqual(expect.arrayContaining(keptCodes));
      for (const id of deletedCodes) expect(remaining).not.toContain(id);
    });

    it('deletes the spent nonces whose expiry has passed and keeps the others', async () => {
      expect(await nonces()).toEqual(['future-day', 'future-minute']);
    });

    it('logs what it deleted', () => {
      expect(logs).toContainEqual(`info: Deleted ${deletedCodes.length} expired sign-in codes and 2 spent nonces`);
    });

    it('is idempotent: a second run deletes nothing more', async () => {
      const codesBefore = await codeIds();
      const noncesBefore = await nonces();
      logs.length = 0;
      await runTask();
      expect(await codeIds()).toEqual(codesBefore);
      expect(await nonces()).toEqual(noncesBefore);
      expect(logs).toContainEqual('info: Deleted 0 expired sign-in codes and 0 spent nonces');
    });

    it('leaves the users, and the codes still in use, working: the kept magic link still signs in', async () => {
      const user = await createUser(t, ws, UserType.EMPLOYEE);
      expect((await post('/auth/magic-link/request', { email: user.body.official_email })).statusCode).toBe(200);
      const mail = (await t.outbox()).filter((m) => m.to === user.body.official_email && m.text.includes('/auth/magic-link?')).at(-1)!;
      await runTask();
      const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
      const res = await post('/auth/magic-link/verify', { token });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('the crontab', () => {
    it('schedules delete_expired_sign_in_codes hourly, and the worker knows the task', () => {
      const item = CRON_ITEMS.find((c) => c.task === 'delete_expired_sign_in_codes');
      expect(item).toBeDefined();
      const parsed = parsedCronItems().find((c) => c.task === 'delete_expired_sign_in_codes');
      expect(parsed).toBeDefined();
      expect(parsed!.identifier).toBe('delete_expired_sign_in_codes');
      expect(typeof TASKS.delete_expired_sign_in_codes).toBe('function');
      // Once an hour: exactly one minute of every hour of every day matches.
      const at = (min: number, hour: number, dow = 3): TimestampDigest => ({ min, hour, date: 15, month: 6, dow });
      for (const hour of [0, 5, 13, 23]) {
        const minutes = Array.from({ length: 60 }, (_, min) => min).filter((min) => parsed!.match(at(min, hour)));
        expect(minutes, `hour ${hour}`).toHaveLength(1);
      }
      expect(parsed!.match(at(17, 4, 0))).toBe(true);
    });

    it('names only tasks the worker has', () => {
      for (const item of parsedCronItems()) expect(Object.keys(TASKS)).toContain(item.task);
    });
  });
});
