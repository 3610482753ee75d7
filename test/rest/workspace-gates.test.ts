import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** A suspended workspace (status 0) answers 403 to every request of its users, and lets nobody sign in. */
describe('workspace gates: suspended', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  const SUSPENDED = { response_code: 403, message: 'This workspace is suspended; contact support to reactivate it' };
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Gate Dairy');
    other = await createWorkspace(t, 'Open Dairy');
  });
  afterAll(() => t.close());

  const setStatus = (status: number) =>
    t.orm.em.fork().getConnection().execute('update organization set status = ? where id = ?', [status, ws.organizationId]);
  const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/auth/me', token });

  it('refuses every request of the workspace with 403, REST and GraphQL, and lifts with reactivation', async () => {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    await setStatus(0);
    try {
      for (const res of [
        await me(ws.token),
        await me(employee.token),
        await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token }),
        await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { org_footer_name: 'x' } }),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual(SUSPENDED);
      }
      expectGraphqlError(await t.graphql('{ me { id } }', {}, ws.token), 'FORBIDDEN', SUSPENDED.message);
      expect((await me(other.token)).statusCode).toBe(200); // another workspace is unaffected
    } finally {
      await setStatus(1);
    }
    expect((await me(ws.token)).statusCode).toBe(200); // the session survives the suspension
  });

  it('lets nobody of a suspended workspace sign in (no token is issued)', async () => {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const login = () =>
      t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email: employee.body.official_email, password: 'password123', challenge_token: 'x' } });
    await setStatus(0);
    try {
      const res = await login();
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual(SUSPENDED);
    } finally {
      await setStatus(2);
    }
    expect((await login()).statusCode).toBe(200); // trial workspaces sign in as usual
  });
});
