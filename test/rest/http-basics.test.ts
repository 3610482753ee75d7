import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, uniquePhone, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

describe('HTTP basics: probes, docs, content types, workspace seat limit', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
  });
  afterAll(() => t.close());

  it('probes answer without credential or User-Agent', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document and an API reference page with only local assets', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');

    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset, 'no CDN').not.toMatch(/^(https?:)?\/\//);
      const res = await t.app.inject({ method: 'GET', url: `/docs/${asset.replace(/^\.\//, '')}` });
      expect(res.statusCode, asset).toBe(200);
    }
  });

  it('refuses a body that is not JSON with 415 and the envelope', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/masters/towns',
      token: ws.token,
      headers: { 'content-type': 'text/plain' },
      payload: 'town_name=Pune',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ response_code: 415, message: 'Content-Type must be application/json' });
  });

  it('answers 500 without leaking details when something unexpected fails', async () => {
    const broken = await buildTestApp();
    const admin = await createWorkspace(broken);
    await broken.orm.em.fork().getConnection().execute('alter table town rename to town_gone');
    const res = await broken.request({ method: 'GET', url: '/api/v1/masters/towns', token: admin.token });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ response_code: 500, message: 'Internal server error' });
    const gql = await broken.graphql('{ towns { nodes { id } } }', {}, admin.token);
    expect(gql.errors?.[0]).toEqual({
      message: 'Internal server error',
      locations: expect.any(Array),
      path: ['towns'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(JSON.stringify(gql)).not.toMatch(/town_gone|select|stack/i);
    await broken.close();
  });

  it('a route alone sets the customer town; a route of another town is refused', async () => {
    const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Nashik' } });
    const other = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Satara' } });
    const route = await t.request({
      method: 'POST',
      url: '/api/v1/masters/routes',
      token: ws.token,
      payload: { route_name: 'Market Road', town_id: town.json().data.id },
    });
    const customer = await createUser(t, ws, UserType.RETAILER, { route_id: route.json().data.id });
    expect(customer.body).toMatchObject({ town_id: town.json().data.id, town_name: 'Nashik', route_name: 'Market Road' });

    const mismatch = await t.request({
      method: 'POST',
      url: '/api/v1/users',
      token: ws.token,
      payload: {
        first_name: 'Mis',
        last_name: 'Match',
        primary_contact_number: uniquePhone(),
        password: 'password123',
        role_id: ws.roles.Retailer,
        user_type: 3,
        town_id: other.json().data.id,
        route_id: route.json().data.id,
      },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe('route_id is not a route of the given town');
  });

  it('refuses a new user once the workspace has max_users active users', async () => {
    const small = await createWorkspace(t);
    await t.orm.em.fork().getConnection().execute('update organization set max_users = 2 where id = ?', [small.organizationId]);
    await createUser(t, small, UserType.EMPLOYEE); // admin + 1 = 2
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/users',
      token: small.token,
      payload: {
        first_name: 'One',
        last_name: 'Toomany',
        primary_contact_number: uniquePhone(),
        password: 'password123',
        role_id: small.roles.Employee,
        user_type: 1,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This workspace has reached its limit of 2 active users');
    const list = await t.request({ method: 'GET', url: '/api/v1/users', token: small.token });
    expect(list.json().pagination.total).toBe(2);
  });
});
