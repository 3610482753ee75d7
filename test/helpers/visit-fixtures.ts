import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { unique, type Workspace } from './fixtures';
import type { TestApp } from './test-app';

/** Where tagged test outlets stand. */
export const OUTLET_AT = { latitude: 22.5645, longitude: 72.9289 };

/** A point `metres` north of the outlet (1° of latitude ≈ 111,195 m on the haversine sphere). */
export const northOfOutlet = (metres: number) => ({ latitude: OUTLET_AT.latitude + metres / 111_195.08, longitude: OUTLET_AT.longitude });

/** Creates a town, a route and an active outlet on it (tagged at OUTLET_AT unless `tagged` is false); its id. */
export async function createOutlet(t: TestApp, ws: Workspace, options: { tagged?: boolean } = {}): Promise<number> {
  const n = unique();
  const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: `Town ${n}` } });
  expect(town.statusCode, town.body).toBe(201);
  const route = await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: ws.token, payload: { route_name: `Route ${n}`, town_id: town.json().data.id } });
  expect(route.statusCode, route.body).toBe(201);
  const outlet = await t.request({
    method: 'POST',
    url: '/api/v1/masters/outlets',
    token: ws.token,
    payload: { outlet_name: `Outlet ${n}`, town_id: town.json().data.id, route_id: route.json().data.id, phone: '9876543210' },
  });
  expect(outlet.statusCode, outlet.body).toBe(201);
  const id = outlet.json().data.id as number;
  if (options.tagged !== false) {
    const tag = await t.request({ method: 'POST', url: `/api/v1/masters/outlets/${id}/tag`, token: ws.token, payload: OUTLET_AT });
    expect(tag.statusCode, tag.body).toBe(200);
  }
  return id;
}

/** Creates an active no-sale reason; its id. */
export async function createNoSaleReason(t: TestApp, ws: Workspace, name = `Shop closed ${unique()}`): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/v1/masters/no-sale-reasons', token: ws.token, payload: { no_sale_reason: name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

/** A REST check-in body at the outlet, `minutesAgo` by the device's clock. */
export function checkInBody(outletId: number, minutesAgo = 10, extra: Record<string, unknown> = {}) {
  return { client_ref: randomUUID(), outlet_id: outletId, device_time: new Date(Date.now() - minutesAgo * 60_000).toISOString(), ...OUTLET_AT, ...extra };
}

/** A REST check-out body at the outlet, now by the device's clock. */
export function checkOutBody(extra: Record<string, unknown> = {}) {
  return { device_time: new Date().toISOString(), ...OUTLET_AT, outcome: 3, ...extra };
}

/** How many visits a workspace holds (straight from the table). */
export async function visitCount(t: TestApp, ws: Workspace): Promise<number> {
  const [row] = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from visit where organization_id = ?', [ws.organizationId]);
  return row.n;
}
