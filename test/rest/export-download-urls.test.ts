import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkWriter } from '../../src/domains/exports/chunk-store';
import { createWorkspace, type Workspace } from '../helpers/fixtures';
import { expectGraphqlError } from '../helpers/graphql-assertions';
import { BROWSER_AGENT, buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * The pre-signed `downloadUrl` of an export job (GraphQL `export(id)`): an absolute URL under
 * PUBLIC_API_URL when set, else under the protocol and host the request came to (forwarded ones
 * only with TRUST_PROXY); the signature is its credential, so curl fetches it without an API key
 * or a browser User-Agent, while a tampered one is still refused. The file is a READY job written
 * straight into the chunk store (the worker's part is tested in test/jobs/export-jobs.test.ts).
 */

const CURL_AGENT = 'curl/8.5.0';
const INVALID_LINK = 'This download link is not valid';
const EXPORT_QUERY = 'query Job($id: Int!) { export(id: $id) { status downloadUrl } }';
const run = promisify(execFile);

/** `<base>/api/v1/exports/files/<id>?expires=…&signature=…`, split. */
function linkOf(url: string): { base: string; path: string; signature: string } {
  const match = /^(.*)(\/api\/v1\/exports\/files\/\d+\?expires=\d+&signature=([A-Za-z0-9_-]{43}))$/.exec(url);
  expect(match, url).not.toBeNull();
  return { base: match![1], path: match![2], signature: match![3] };
}

describe('export download URLs', () => {
  let t: TestApp;
  let ws: Workspace;
  let jobId: number;
  const file = randomBytes(200_000);

  /** The job's downloadUrl as `app` answers a request with these extra headers. */
  async function downloadUrl(app: TestApp, headers: Record<string, string> = {}): Promise<string> {
    const res = await app.request({ method: 'POST', url: '/graphql', token: ws.token, headers, payload: { query: EXPORT_QUERY, variables: { id: jobId } } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.errors, res.body).toBeUndefined();
    expect(body.data.export.status).toBe('READY');
    return body.data.export.downloadUrl;
  }

  /** Another instance over the same database (same signing secret), with other settings. */
  const instances: TestApp[] = [];
  async function instance(env: Record<string, string>): Promise<TestApp> {
    const other = await buildTestApp(env, { sharedDatabase: t.db });
    instances.push(other);
    return other;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Download Dairy');
    const [job] = await t.orm.em.fork().getConnection().execute<{ id: number }[]>(
      `insert into export_job (organization_id, kind, format, filters, status, file_name, rows_done, rows_total, byte_size, finished_at, expires_at)
       values (?, 'orders', 'xlsx', '{}', 'ready', 'orders-2026-01-01.xlsx', 0, 0, ?, now(), now() + interval '1 day') returning id`,
      [ws.organizationId, file.length],
    );
    jobId = job.id;
    await pipeline(Readable.from([file]), new ChunkWriter(t.orm.em.fork(), ws.organizationId, jobId));
  });

  afterAll(async () => {
    for (const other of instances) await other.close();
    await t?.close();
  });

  it('curl fetches the file with the downloadUrl as given (no API key, its own User-Agent), over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const asked = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER_AGENT, authorization: `Bearer ${ws.token}` },
      body: JSON.stringify({ query: EXPORT_QUERY, variables: { id: jobId } }),
    });
    const url = ((await asked.json()) as { data: { export: { downloadUrl: string } } }).data.export.downloadUrl;
    expect(linkOf(url).base).toBe(`http://127.0.0.1:${port}`);

    const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code} %{content_type}', url], { encoding: 'buffer', maxBuffer: 10 * 1024 * 1024 });
    const split = stdout.lastIndexOf('\n');
    expect(stdout.subarray(split + 1).toString()).toBe('200 application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(stdout.subarray(0, split).equals(file)).toBe(true);

    // The same curl on a route without a signed URL is still sent to API keys.
    const refused = await run('curl', ['-sS', '-H', `authorization: Bearer ${ws.token}`, `http://127.0.0.1:${port}/api/v1/auth/me`]);
    expect(JSON.parse(refused.stdout)).toEqual({ response_code: 403, message: 'Requests from automated HTTP clients need an API key (X-API-Key)' });
  });

  it('a curl-like User-Agent passes only with a good signature: a tampered one is still 403, and curl elsewhere is still refused', async () => {
    const { path, signature } = linkOf(await downloadUrl(t));
    const ok = await t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': CURL_AGENT } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.rawPayload.equals(file)).toBe(true);
    // A flipped character, a shortened signature, none at all.
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const bad of [path.replace(signature, flipped), path.replace(signature, signature.slice(0, -1))]) {
      const res = await t.app.inject({ method: 'GET', url: bad, headers: { 'user-agent': CURL_AGENT } });
      expect(res.statusCode, bad).toBe(403);
      expect(res.json()).toEqual({ response_code: 403, message: INVALID_LINK });
    }
    const unsigned = await t.app.inject({ method: 'GET', url: path.replace(/&signature=.*$/, ''), headers: { 'user-agent': CURL_AGENT } });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toMatch(/signature/);
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/v1/orders', headers: { 'user-agent': CURL_AGENT, authorization: `Bearer ${ws.token}` } });
    expect(elsewhere.statusCode).toBe(403);
  });

  it('without PUBLIC_API_URL: the request\'s own protocol and host; forwarded ones are ignored unless TRUST_PROXY trusts the sender', async () => {
    expect(linkOf(await downloadUrl(t)).base).toBe('http://localhost:80'); // light-my-request's default Host
    expect(linkOf(await downloadUrl(t, { host: 'files.example.test:8443' })).base).toBe('http://files.example.test:8443');
    expect(linkOf(await downloadUrl(t, { host: '[::1]:3000' })).base).toBe('http://[::1]:3000');
    const forwarded = { host: 'internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'exports.example.com' };
    expect(linkOf(await downloadUrl(t, forwarded)).base).toBe('http://internal:3000');

    const behindProxy = await instance({ TRUST_PROXY: 'true' });
    expect(linkOf(await downloadUrl(behindProxy, forwarded)).base).toBe('https://exports.example.com');
    // Several proxies: the last entry is the nearest one's (Fastify's request.host and request.protocol).
    expect(linkOf(await downloadUrl(behindProxy, { ...forwarded, 'x-forwarded-host': 'spoofed.example, exports.example.com' })).base).toBe('https://exports.example.com');
    expect(linkOf(await downloadUrl(behindProxy, { host: 'internal:3000' })).base).toBe('http://internal:3000');
  });

  it('refuses (BAD_USER_INPUT) to build a link on a host that is no host name or address, or a forwarded protocol other than http(s)', async () => {
    const behindProxy = await instance({ TRUST_PROXY: 'true' });
    for (const [app, headers] of [
      [t, { host: 'evil.example/phish?' }],
      [t, { host: 'user@evil.example' }],
      [behindProxy, { 'x-forwarded-host': 'evil.example/phish#' }],
      [behindProxy, { 'x-forwarded-proto': 'javascript' }],
    ] as Array<[TestApp, Record<string, string>]>) {
      const res = await app.request({ method: 'POST', url: '/graphql', token: ws.token, headers, payload: { query: EXPORT_QUERY, variables: { id: jobId } } });
      expectGraphqlError({ ...res.json(), statusCode: res.statusCode }, 'BAD_USER_INPUT', /^The request names no valid protocol and host .* or set PUBLIC_API_URL$/);
    }
  });

  it('with PUBLIC_API_URL: under it (path kept), whatever the request\'s host; the link works', async () => {
    const configured = await instance({ PUBLIC_API_URL: 'https://api.example.com/sales/', TRUST_PROXY: 'true' });
    const requests: Array<Record<string, string>> = [{}, { host: 'internal:3000' }, { 'x-forwarded-host': 'exports.example.com', 'x-forwarded-proto': 'http' }, { host: 'evil.example/phish?' }];
    for (const headers of requests) {
      const { base, path } = linkOf(await downloadUrl(configured, headers));
      expect(base, JSON.stringify(headers)).toBe('https://api.example.com/sales');
      const res = await configured.app.inject({ method: 'GET', url: path, headers: { 'user-agent': CURL_AGENT } });
      expect(res.statusCode).toBe(200);
    }
  });
});
