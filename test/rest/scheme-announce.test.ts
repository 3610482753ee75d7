import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceStartedSchemes } from '../../src/domains/schemes/scheme-announce';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createUser, createWorkspace, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * "Scheme started" notifications: the announce_started_schemes task tells the active customers in
 * a scheme's scope on its first day (the workspace's), once; not before, not after a week.
 */
describe('scheme started notifications', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  let today: string;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
    const [{ day }] = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ day: string }>>(`select to_char((now() at time zone time_zone)::date, 'YYYY-MM-DD') as day from workspace_config where organization_id = ?`, [ws.organizationId]);
    today = day;
  });
  afterAll(() => t.close());

  const createScheme = async (extra: object): Promise<number> => {
    const payload = { name: `Monsoon ${unique()}`, code: `M${unique()}`, kind: 2, target_kind: 1, target_id: catalog.variantIds[0], slabs: [{ min_qty: 10, free_qty: 1 }], ...extra };
    const res = await t.request({ method: 'POST', url: '/api/v1/schemes', token: ws.token, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  };
  const announcementsOf = async (token: string, schemeId: number) =>
    ((await t.request({ method: 'GET', url: '/api/v1/portal/notifications?limit=100', token })).json().data as Array<{ type: string; entity_type: string; entity_id: number; title: string }>).filter(
      (n) => n.type === 'scheme_started' && n.entity_type === 'scheme' && n.entity_id === schemeId,
    );

  it('tells the customers in scope on its first day, once; a later start waits for its day', async () => {
    const retailer = await createUser(t, ws, UserType.RETAILER);
    const forRetailers = await createScheme({ valid_from: today, scope: 4, scope_ids: [UserType.RETAILER] });
    const tomorrow = await createScheme({ valid_from: shiftDay(today, 1) });
    const em = () => t.orm.em.fork();

    expect(await announceStartedSchemes(em())).toBeGreaterThanOrEqual(1);
    const [note] = await announcementsOf(retailer.token, forRetailers);
    expect(note.title).toMatch(/^New scheme: Monsoon /);
    expect(await announcementsOf(catalog.distributorToken, forRetailers)).toEqual([]);
    expect(await announcementsOf(retailer.token, tomorrow)).toEqual([]);

    // Once: a second run announces nothing again.
    await announceStartedSchemes(em());
    expect(await announcementsOf(retailer.token, forRetailers)).toHaveLength(1);

    // Tomorrow (a day and a half on), the other one, to everyone (scope all).
    await announceStartedSchemes(em(), new Date(Date.now() + 36 * 3_600_000));
    expect(await announcementsOf(retailer.token, tomorrow)).toHaveLength(1);
    expect(await announcementsOf(catalog.distributorToken, tomorrow)).toHaveLength(1);
  });

  it('does not announce a scheme that started more than a week ago, nor a disabled or ended one', async () => {
    const retailer = await createUser(t, ws, UserType.RETAILER);
    const old = await createScheme({ valid_from: shiftDay(today, -8) });
    const disabled = await createScheme({ valid_from: today, status: 2 });
    const ended = await createScheme({ valid_from: shiftDay(today, -3), valid_to: shiftDay(today, -1) });
    await announceStartedSchemes(t.orm.em.fork());
    for (const id of [old, disabled, ended]) expect(await announcementsOf(retailer.token, id)).toEqual([]);
  });
});
