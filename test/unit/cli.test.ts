import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The operator CLI (src/cli/main.ts): `user:unlock <email>` lifts a sign-in lockout, and usage
 * errors exit with status 2. runCli is called in-process against the test database (DATABASE_URL),
 * and once more as a real process from the build in dist/.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const CLI_JS = path.join(ROOT, 'dist/src/cli/main.js');

describe('operator CLI', () => {
  let t: TestApp;
  let ws: Workspace;
  const savedUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'CLI Dairy');
    process.env.DATABASE_URL = t.db.url;
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await t.close();
  });

  /** Runs the CLI in-process; returns the exit code and what it printed. */
  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, (line) => out.push(line), (line) => err.push(line));
    return { code, out, err };
  }

  const login = (email: string, password: string) =>
    t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password, challenge_token: 'x' } });

  async function lockedUser(): Promise<{ id: number; email: string }> {
    const user = await createUser(t, ws, UserType.EMPLOYEE);
    const email = user.body.official_email as string;
    for (let i = 1; i <= 5; i += 1) {
      expect((await login(email, 'wrong')).statusCode).toBe(i < 5 ? 401 : 423);
    }
    return { id: user.id, email };
  }

  const account = async (id: number) => {
    const [row] = await t.orm.em.fork().getConnection().execute<{ failed_sign_ins: number; locked_until: Date | null }[]>(
      'select failed_sign_ins, locked_until from app_user where id = ?',
      [id],
    );
    return { failed: row.failed_sign_ins, locked: row.locked_until !== null };
  };

  describe('user:unlock', () => {
    it('unlocks a locked account: exit 0, says so, and the right password signs in again', async () => {
      const { id, email } = await lockedUser();
      expect((await login(email, 'password123')).statusCode).toBe(423);
      const { code, out, err } = await cli('user:unlock', email);
      expect({ code, err }).toEqual({ code: 0, err: [] });
      expect(out).toEqual([`Unlocked ${email} (failed sign-ins: 5 -> 0)`]);
      expect(await account(id)).toEqual({ failed: 0, locked: false });
      expect((await login(email, 'password123')).statusCode).toBe(200);
    });

    it('accepts the e-mail in upper case (and prints it as stored)', async () => {
      const { id, email } = await lockedUser();
      const { code, out } = await cli('user:unlock', `  ${email.toUpperCase()} `);
      expect(code).toBe(0);
      expect(out).toEqual([`Unlocked ${email} (failed sign-ins: 5 -> 0)`]);
      expect(await account(id)).toEqual({ failed: 0, locked: false });
    });

    it('an account that is not locked: exit 0, and its failure count is reset', async () => {
      const user = await createUser(t, ws, UserType.EMPLOYEE);
      const email = user.body.official_email as string;
      for (let i = 0; i < 3; i += 1) expect((await login(email, 'wrong')).statusCode).toBe(401);
      const first = await cli('user:unlock', email);
      expect(first).toEqual({ code: 0, out: [`${email} was not locked; failed sign-ins reset from 3 to 0`], err: [] });
      expect(await account(user.id)).toEqual({ failed: 0, locked: false });
      const again = await cli('user:unlock', email);
      expect(again).toEqual({ code: 0, out: [`${email} was not locked; failed sign-ins reset from 0 to 0`], err: [] });
    });

    it('an account whose lock has run out is "not locked"', async () => {
      const { id, email } = await lockedUser();
      await t.orm.em.fork().getConnection().execute(`update app_user set locked_until = now() - interval '1 minute' where id = ?`, [id]);
      const { code, out } = await cli('user:unlock', email);
      expect(code).toBe(0);
      expect(out).toEqual([`${email} was not locked; failed sign-ins reset from 5 to 0`]);
      expect(await account(id)).toEqual({ failed: 0, locked: false });
    });

    it('an unknown e-mail: exit 2 and "No user has the e-mail address <email>"', async () => {
      const res = await cli('user:unlock', 'nobody-at-all@example.test');
      expect(res).toEqual({ code: 2, out: [], err: ['No user has the e-mail address nobody-at-all@example.test'] });
    });

    it('a missing argument: exit 2 with the usage', async () => {
      expect(await cli('user:unlock')).toEqual({ code: 2, out: [], err: ['Missing <email>. Usage: user:unlock <email>'] });
      expect(await cli('user:unlock', '   ')).toEqual({ code: 2, out: [], err: ['Missing <email>. Usage: user:unlock <email>'] });
    });

    it('an argument that is not an e-mail address: exit 2', async () => {
      const res = await cli('user:unlock', 'not-an-email');
      expect(res).toEqual({ code: 2, out: [], err: ['Not an e-mail address: not-an-email'] });
    });
  });

  describe('commands and help', () => {
    it('an unknown command: exit 2, names it and lists user:unlock', async () => {
      const { code, out, err } = await cli('user:delete', 'someone@example.test');
      expect(code).toBe(2);
      expect(out).toEqual([]);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/^Unknown command "user:delete"\./);
      expect(err[0]).toMatch(/^\s+user:unlock <email>\s+lifts a sign-in lockout$/m);
    });

    it('no command: exit 2 with the usage', async () => {
      const { code, out } = await cli();
      expect(code).toBe(2);
      expect(out.join('\n')).toMatch(/^Usage: npm run cli -- <command> \[arguments\]/);
      expect(out.join('\n')).toContain('user:unlock <email>');
    });

    it('help: exit 0 with the usage', async () => {
      const { code, out } = await cli('help');
      expect(code).toBe(0);
      expect(out.join('\n')).toContain('user:unlock <email>');
    });

    it('a bad DATABASE_URL: exit 1 naming the variable, nothing unlocked', async () => {
      process.env.DATABASE_URL = 'mysql://nowhere';
      try {
        const { code, err } = await cli('user:unlock', 'someone@example.test');
        expect(code).toBe(1);
        expect(err.join('\n')).toMatch(/DATABASE_URL/);
      } finally {
        process.env.DATABASE_URL = t.db.url;
      }
    });
  });

  describe('as a real process (dist/src/cli/main.js)', () => {
    let built = false;
    beforeAll(async () => {
      try {
        await run('npm', ['run', '-s', 'build'], { cwd: ROOT, timeout: 60_000 });
        built = existsSync(CLI_JS);
      } catch {
        built = false;
      }
    }, 60_000);

    it('unlocks an account and exits 0; an unknown e-mail exits 2', async (ctx) => {
      if (!built) ctx.skip('npm run -s build did not produce dist/src/cli/main.js');
      const { id, email } = await lockedUser();
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: t.db.url };
      const ok = await run(process.execPath, ['--enable-source-maps', CLI_JS, 'user:unlock', email], { cwd: ROOT, env, timeout: 30_000 });
      expect(ok.stdout).toBe(`Unlocked ${email} (failed sign-ins: 5 -> 0)\n`);
      expect(await account(id)).toEqual({ failed: 0, locked: false });
      expect((await login(email, 'password123')).statusCode).toBe(200);

      const failed = await run(process.execPath, [CLI_JS, 'user:unlock', 'nobody-at-all@example.test'], { cwd: ROOT, env, timeout: 30_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(failed).toEqual({ code: 2, stderr: 'No user has the e-mail address nobody-at-all@example.test\n' });
    }, 60_000);
  });
});
