import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { type: string; message: string; stack: string };
  res?: { statusCode: number };
}

/**
 * Every 500 is logged exactly once, with the request id, the error and its stack, whether a REST
 * handler or a GraphQL resolver failed. The failure is real: the table the handlers read is
 * renamed under the running app, so the statement itself fails in PostgreSQL.
 */
describe('unexpected failures in the log', () => {
  let t: TestApp;
  let ws: Workspace;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(JSON.parse(line)) } });
    ws = await createWorkspace(t);
    await t.orm.em.fork().getConnection().execute('alter table town rename to town_gone');
  });
  afterAll(() => t.close());

  /** The error lines of one request, and its access line. */
  function linesOf(reqId: string) {
    const own = lines.filter((line) => line.reqId === reqId);
    return { errors: own.filter((line) => line.level >= 50), access: own.filter((line) => line.msg === 'request completed') };
  }

  /** The request id of the one access line written since `from`. */
  function lastRequestId(from: number): string {
    const access = lines.slice(from).filter((line) => line.msg === 'request completed');
    expect(access).toHaveLength(1);
    return access[0].reqId!;
  }

  it('a REST handler that throws: one error line with the request id, the error and its stack', async () => {
    const from = lines.length;
    const res = await t.request({ method: 'GET', url: '/api/v1/masters/towns', token: ws.token });
    expect(res.statusCode).toBe(500);
    const reqId = lastRequestId(from);
    const { errors, access } = linesOf(reqId);
    expect(access[0].res?.statusCode).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toBe('request failed');
    expect(errors[0].err?.message).toMatch(/town/);
    expect(errors[0].err?.stack).toMatch(/\n\s+at /);
    // The client learns nothing of it.
    expect(res.body).not.toMatch(/town_gone|relation|stack/);
  });

  it('a GraphQL resolver that throws: one error line with the request id, the error and its stack', async () => {
    const from = lines.length;
    const res = await t.graphql('{ towns { nodes { id } } }', {}, ws.token);
    expect(res.errors?.[0].extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    const reqId = lastRequestId(from);
    const { errors } = linesOf(reqId);
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toBe('GraphQL operation failed');
    expect(errors[0].err?.message).toMatch(/town/);
    expect(errors[0].err?.stack).toMatch(/\n\s+at /);
  });

  it('refusals (4xx) write no error line', async () => {
    const from = lines.length;
    expect((await t.request({ method: 'GET', url: '/api/v1/users?page=1e20', token: ws.token })).statusCode).toBe(400);
    expect((await t.graphql('{ users(search: "\\u0000") { pageInfo { total } } }', {}, ws.token)).statusCode).toBe(400);
    expect(lines.slice(from).filter((line) => line.level >= 50)).toEqual([]);
  });
});
