import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, uniquePhone, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/** Outlets (/masters/outlets): created on a route of a town, tagged on visits. */
describe('outlets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (token: string, url: string, payload: object) => t.request({ method: 'POST', url: `/api/v1${url}`, token, payload });
  /** A town with a route, and a second town with its own route. */
  async function place(ws: Workspace) {
    const town = (await post(ws.token, '/masters/towns', { town_name: `Anand ${ws.slug}` })).json().data.id as number;
    const route = (await post(ws.token, '/masters/routes', { route_name: 'North', town_id: town })).json().data.id as number;
    const otherTown = (await post(ws.token, '/masters/towns', { town_name: `Nadiad ${ws.slug}` })).json().data.id as number;
    const otherRoute = (await post(ws.token, '/masters/routes', { route_name: 'South', town_id: otherTown })).json().data.id as number;
    return { town, route, otherTown, otherRoute };
  }

  it('creates, lists, changes and tags an outlet', async () => {
    const ws = await createWorkspace(t);
    const p = await place(ws);
    const phone = uniquePhone();
    const res = await post(ws.token, '/masters/outlets', { outlet_name: 'Shree Dairy Point', route_id: p.route, town_id: p.town, phone });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toEqual({
      id: expect.any(Number),
      outlet_name: 'Shree Dairy Point',
      town_id: p.town,
      town_name: `Anand ${ws.slug}`,
      route_id: p.route,
      route_name: 'North',
      phone,
      latitude: null,
      longitude: null,
      tagged_at: null,
      status: 1,
      createdAt: expect.any(String),
    });
    const listed = await t.request({ method: 'GET', url: '/api/v1/masters/outlets?search=shree', token: ws.token });
    expect(listed.json().data).toEqual([created]);

    const moved = await t.request({ method: 'PUT', url: `/api/v1/masters/outlets/${created.id}`, token: ws.token, payload: { town_id: p.otherTown, route_id: p.otherRoute } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ town_id: p.otherTown, route_id: p.otherRoute, route_name: 'South' });

    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const tagged = await post(employee.token, `/masters/outlets/${created.id}/tag`, { latitude: 22.5645, longitude: 72.9289 });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(tagged.json()).toMatchObject({ response_code: 200, message: 'Outlet tagged', data: { latitude: 22.5645, longitude: 72.9289, tagged_at: expect.any(String) } });
  });

  it('validates the place, the phone and the name, creating nothing', async () => {
    const ws = await createWorkspace(t);
    const p = await place(ws);
    const base = { outlet_name: 'Corner Store', route_id: p.route, town_id: p.town, phone: uniquePhone() };
    for (const [payload, message] of [
      [{ ...base, route_id: p.otherRoute }, 'route_id is not a route of the given town'],
      [{ ...base, route_id: 999999 }, 'route_id does not name a route of this workspace'],
      [{ ...base, town_id: 999999 }, 'town_id does not name a town of this workspace'],
      [{ ...base, phone: '12' }, 'phone must be a phone number of 10 to 15 digits, optionally starting with +'],
      [{ ...base, outlet_name: '  ' }, 'outlet_name is required'],
      [{ outlet_name: 'X', town_id: p.town, phone: uniquePhone() }, /^route_id /],
    ] as const) {
      const res = await post(ws.token, '/masters/outlets', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await t.request({ method: 'GET', url: '/api/v1/masters/outlets', token: ws.token })).json().pagination.total).toBe(0);
    expect((await post(ws.token, '/masters/outlets', base)).statusCode).toBe(201);
    expect((await post(ws.token, '/masters/outlets', { ...base, outlet_name: 'corner store' })).statusCode).toBe(409); // same route
    expect((await post(ws.token, '/masters/outlets', { ...base, route_id: p.otherRoute, town_id: p.otherTown })).statusCode).toBe(201);
  });

  it('lets staff and API keys tag, not customers; tags are checked; another workspace’s outlet is 404', async () => {
    const ws = await createWorkspace(t);
    const p = await place(ws);
    const id = (await post(ws.token, '/masters/outlets', { outlet_name: 'Tag Me', route_id: p.route, town_id: p.town, phone: uniquePhone() })).json().data.id;
    const retailer = await createUser(t, ws, UserType.RETAILER);
    expect((await post(retailer.token, `/masters/outlets/${id}/tag`, { latitude: 1, longitude: 1 })).statusCode).toBe(403);
    expect((await post(ws.token, `/masters/outlets/${id}/tag`, { latitude: 100, longitude: 1 })).json()).toEqual(errorEnvelope(400, 'latitude must be <= 90'));
    const key = await createApiKey(t, ws, { scopes: 'masters,write' });
    const byKey = await t.request({ method: 'POST', url: `/api/v1/masters/outlets/${id}/tag`, apiKey: key.key, payload: { latitude: -33.9, longitude: 151.2 } });
    expect(byKey.statusCode, byKey.body).toBe(200);
    const other = await createWorkspace(t);
    expect((await post(other.token, `/masters/outlets/${id}/tag`, { latitude: 1, longitude: 1 })).statusCode).toBe(404);
  });

  it('works over GraphQL', async () => {
    const ws = await createWorkspace(t);
    const p = await place(ws);
    const created = await t.graphql<{ createOutlet: { id: number; name: string; town: { id: number }; route: { id: number } } }>(
      'mutation($input: OutletInput!) { createOutlet(input: $input) { id name town { id } route { id } } }',
      { input: { name: 'GQL Outlet', townId: p.town, routeId: p.route, phone: uniquePhone() } },
      ws.token,
    );
    expect(created.data?.createOutlet).toMatchObject({ name: 'GQL Outlet', town: { id: p.town }, route: { id: p.route } });
    const tagged = await t.graphql<{ tagOutlet: { taggedAt: string | null } }>(
      'mutation($id: Int!) { tagOutlet(id: $id, latitude: 12.9, longitude: 77.6) { taggedAt } }',
      { id: created.data!.createOutlet.id },
      ws.token,
    );
    expect(tagged.data?.tagOutlet.taggedAt).toEqual(expect.any(String));
    const page = await t.graphql<{ outlets: { pageInfo: { total: number } } }>('{ outlets { pageInfo { total } } }', {}, ws.token);
    expect(page.data?.outlets.pageInfo.total).toBe(1);
  });
});
