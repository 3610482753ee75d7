import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** The operator CLI's workspace commands (operations.md): list, status, trial end, plan. */
describe('operator CLI: workspaces', () => {
  let t: TestApp;
  let dairy: Workspace;
  let bakery: Workspace;
  const savedUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await buildTestApp();
    dairy = await createWorkspace(t, 'Operator Dairy');
    bakery = await createWorkspace(t, 'Operator Bakery');
    await createUser(t, dairy, UserType.EMPLOYEE);
    await createUser(t, dairy, UserType.DISTRIBUTOR);
    process.env.DATABASE_URL = t.db.url;
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await t.close();
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, (line) => out.push(line), (line) => err.push(line));
    return { code, out, err };
  }

  const row = async (slug: string) =>
    (await t.orm.em.fork().getConnection().execute<{ status: number; plan: string; trial_ends_at: Date | null }[]>(
      'select status, plan, trial_ends_at from organization where slug = ?',
      [slug],
    ))[0];

  it('workspace:list prints slug, status, plan, trial end and user count of every workspace', async () => {
    const { code, out } = await cli('workspace:list');
    expect(code).toBe(0);
    expect(out[0].split(/\s{2,}/)).toEqual(['SLUG', 'STATUS', 'PLAN', 'TRIAL END', 'USERS']);
    const dairyLine = out.find((l) => l.startsWith(dairy.slug + ' '))!.split(/\s{2,}/);
    expect(dairyLine).toEqual([dairy.slug, 'trial', 'free', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '3']);
    expect(out.find((l) => l.startsWith(bakery.slug + ' '))!.split(/\s{2,}/).at(-1)).toBe('1');
    expect(out.at(-1)).toBe('2 workspace(s)');
  });

  it('workspace:status sets the status and says what it changed', async () => {
    expect(await cli('workspace:status', bakery.slug, 'suspended')).toEqual({ code: 0, out: [`${bakery.slug}: status trial -> suspended`], err: [] });
    expect((await row(bakery.slug)).status).toBe(0);
    expect((await cli('workspace:status', bakery.slug, 'active')).out).toEqual([`${bakery.slug}: status suspended -> active`]);
    expect((await row(bakery.slug)).status).toBe(1);
  });

  it('workspace:trial-end sets the end of the trial (a past time expires it)', async () => {
    const { code, out } = await cli('workspace:trial-end', dairy.slug, '2020-01-31T12:00:00Z');
    expect(code).toBe(0);
    expect(out).toEqual([expect.stringMatching(new RegExp(`^${dairy.slug}: trial end \\S+ -> 2020-01-31T12:00:00.000Z$`))]);
    expect(new Date((await row(dairy.slug)).trial_ends_at!).toISOString()).toBe('2020-01-31T12:00:00.000Z');
  });

  it('workspace:plan sets the plan', async () => {
    expect((await cli('workspace:plan', dairy.slug, 'professional')).out).toEqual([`${dairy.slug}: plan free -> professional`]);
    expect((await row(dairy.slug)).plan).toBe('professional');
  });

  it.each([
    [['workspace:status', 'no-such-slug', 'active'], 'No workspace has the slug no-such-slug'],
    [['workspace:status', 'x'], 'Missing <status>. Usage: workspace:status <slug> <active|suspended|trial>'],
    [['workspace:status', 'x', 'frozen'], 'Unknown status "frozen"; use one of: suspended, active, trial'],
    [['workspace:plan', 'x', 'gold'], 'Unknown plan "gold"; use one of: free, starter, pro, professional'],
    [['workspace:plan'], 'Missing <slug>. Usage: workspace:plan <slug> <free|starter|pro|professional>'],
    [['workspace:trial-end', 'x', 'next tuesday'], 'Not an ISO 8601 timestamp: next tuesday (e.g. 2026-12-31T23:59:59Z)'],
    [['workspace:trial-end', 'x', '2026-02-31T00:00:00Z'], 'Not an ISO 8601 timestamp: 2026-02-31T00:00:00Z (e.g. 2026-12-31T23:59:59Z)'],
  ])('%j exits 2 with a clear message and changes nothing', async (argv, message) => {
    const before = await row(dairy.slug);
    const { code, err, out } = await cli(...argv);
    expect(code).toBe(2);
    expect(err).toEqual([message]);
    expect(out).toEqual([]);
    expect(await row(dairy.slug)).toEqual(before);
  });
});
