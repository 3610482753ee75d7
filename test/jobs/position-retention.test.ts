import { Logger, quickAddJob, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_ITEMS } from '../../jobs/crontab';
import { createTasks } from '../../jobs/tasks';
import { POSITION_DELETE_BATCH } from '../../jobs/tasks/delete_old_positions';
import { taskDepsOf } from '../../jobs/worker';
import { UserType } from '../../src/domains/users/user.entity';
import { secretsFrom } from '../../src/secrets';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** The daily clean-up of live tracking: positions older than each workspace's retention go, in batches. */
describe('delete_old_positions', () => {
  let t: TestApp;
  const logger = new Logger(() => () => undefined);
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const sql = <T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    t.orm.em.fork().getConnection().execute<T>(query, params);

  /** `count` positions of the user, `ageDays` old (a minute apart), straight into the table. */
  const addPositions = (ws: Workspace, userId: number, ageDays: number, count = 1) =>
    sql(
      `insert into user_position (organization_id, user_id, recorded_at, latitude, longitude)
       select ?, ?, now() - make_interval(days => ?) - make_interval(mins => g), 22.5, 72.9 from generate_series(1, ?) g`,
      [ws.organizationId, userId, ageDays, count],
    );
  const ages = async (ws: Workspace) =>
    (await sql<{ days: number }[]>(`select floor(extract(epoch from now() - recorded_at) / 86400)::int as days from user_position where organization_id = ? order by recorded_at desc`, [ws.organizationId])).map((r) => r.days);
  const run = async () => {
    const tasks = createTasks(taskDepsOf({ config: t.config, secrets: secretsFrom(t.config.jwtSecret!), orm: t.orm }));
    await quickAddJob({ connectionString: t.db.url, logger }, 'delete_old_positions', {});
    await runOnce({ connectionString: t.db.url, taskList: tasks, logger, noHandleSignals: true, concurrency: 1 });
  };

  it('is scheduled daily', () => {
    expect(CRON_ITEMS).toContainEqual(expect.objectContaining({ task: 'delete_old_positions', match: '17 2 * * *' }));
  });

  it('deletes positions past each workspace’s own retention, in batches, and nothing else; a second run changes nothing', async () => {
    const standard = await createWorkspace(t); // 90 days
    const short = await createWorkspace(t);
    const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: short.token, payload: { position_retention_days: 7 } });
    expect(res.statusCode, res.body).toBe(200);
    const a = await createUser(t, standard, UserType.EMPLOYEE);
    const b = await createUser(t, short, UserType.EMPLOYEE);
    for (const [ws, user] of [[standard, a.id], [short, b.id], [short, short.adminId]] as const) {
      for (const age of [1, 6, 8, 89, 91, 400]) await addPositions(ws, user, age);
    }
    // More old rows of one user than a batch deletes: the task goes on until none is left.
    await addPositions(standard, a.id, 120, POSITION_DELETE_BATCH + 7);

    await run();
    expect(await ages(standard)).toEqual([1, 6, 8, 89]);
    expect(await ages(short)).toEqual([1, 1, 6, 6]);
    await run();
    expect(await ages(standard)).toEqual([1, 6, 8, 89]);
    expect(await ages(short)).toEqual([1, 1, 6, 6]);
  });
});
