import { bench, describe } from 'vitest';
import { RequestContext } from '../src/context/request-context';
import { findUserByEmail } from '../src/domains/users/user-lookup';
import { UserType } from '../src/domains/users/user.entity';
import { UnauthenticatedError } from '../src/errors/app-error';
import { createUser, createWorkspace } from '../test/helpers/fixtures';
import { buildTestApp } from '../test/helpers/test-app';

/**
 * Sign-in must not tell which e-mail addresses have accounts by its timing: an unknown e-mail is
 * checked against a dummy Argon2 hash in the same attempt as a known account (row lock, failure
 * count on a row that does not exist), so it should cost what a wrong password costs. Both calls
 * go through the password service (no HTTP rate limit in the way) and both then run the same
 * statement that clears the failure count, so the lockout never triggers and only the sign-in
 * itself differs. Read the two means side by side: their ratio should be close to 1. The third
 * case is the baseline the dummy hash exists to prevent: an unknown e-mail answered right after
 * the lookup.
 */

/** Benchmark files take no beforeAll: the fixture is built once, on first use. */
const fixture = (async () => {
  const t = await buildTestApp();
  const user = await createUser(t, await createWorkspace(t), UserType.EMPLOYEE);
  return { t, userId: user.id, email: user.body.official_email as string };
})();

const clearFailures = async () => {
  const { t, userId } = await fixture;
  await t.orm.em.fork().getConnection().execute('update app_user set failed_sign_ins = 0 where id = ?', [userId]);
};

async function attempt(address: string): Promise<void> {
  const { t } = await fixture;
  const ctx = new RequestContext('bench', t.orm.em.fork(), null, '127.0.0.1');
  try {
    await t.app.services.passwordAuth.login(ctx, { email: address, password: 'not-the-password', challengeToken: 'x' });
    throw new Error('the sign-in should have failed');
  } catch (err) {
    if (!(err instanceof UnauthenticatedError)) throw err;
  }
  await clearFailures();
}

describe('password sign-in: wrong password vs unknown e-mail', () => {
  const options = { iterations: 60, time: 0, warmupIterations: 5 };
  bench('wrong password (the account exists)', async () => attempt((await fixture).email), options);
  bench('unknown e-mail (no account)', () => attempt('nobody-at-all@example.test'), options);
  bench('baseline: unknown e-mail answered after the lookup alone', async () => {
    if (await findUserByEmail((await fixture).t.orm.em.fork(), 'nobody-at-all@example.test')) throw new Error('no such account expected');
    await clearFailures();
  }, {
    ...options,
    teardown: async (_task, mode) => {
      if (mode === 'run') await (await fixture).t.close();
    },
  });
});
