import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Sales plan: targets per employee and month or quarter, and their achievement from the orders they booked. */
describe('sales plan', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
    t.request({ method, url: `/api/v1/sales-plan${url}`, token, payload });
  const createTarget = (token: string, payload: object) => send('POST', '/targets', token, payload);
  const countTargets = async (ws: Workspace) => (await send('GET', '/targets', ws.token)).json().pagination.total as number;

  it('creates, reads, lists, changes and deletes a target, deriving the period’s end', async () => {
    const ws = await createWorkspace(t);
    const c = await seedCatalog(t, ws);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const res = await createTarget(ws.token, { user_id: employee.id, period_type: 2, period_start: '2026-10-01', product_class_id: c.productClassId, target_amount: 125000.5, target_outlets: 40 });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      response_code: 201,
      message: 'Sales target created',
      data: {
        id: expect.any(Number),
        user_id: employee.id,
        user_name: `${employee.body.first_name} ${employee.body.last_name}`,
        period_type: 2,
        period_start: '2026-10-01',
        period_end: '2026-12-31',
        product_class_id: c.productClassId,
        product_class_name: expect.stringMatching(/^Milk /),
        target_amount: 125000.5,
        target_quantity: null,
        target_productive_calls: null,
        target_outlets: 40,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const id = created.data.id;
    expect((await send('GET', `/targets/${id}`, ws.token)).json().data).toEqual(created.data);

    const changed = await send('PUT', `/targets/${id}`, ws.token, { period_type: 1, period_start: '2026-11-01', product_class_id: null, target_quantity: 300, target_amount: null });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ period_type: 1, period_start: '2026-11-01', period_end: '2026-11-30', product_class_id: null, product_class_name: null, target_amount: null, target_quantity: 300, target_outlets: 40 });

    const removed = await send('DELETE', `/targets/${id}`, ws.token);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Sales target deleted', data: { id } });
    expect((await send('GET', `/targets/${id}`, ws.token)).statusCode).toBe(404);
    expect((await send('DELETE', `/targets/${id}`, ws.token)).statusCode).toBe(404);
  });

  it('refuses bad input with a 400 naming the field, writing nothing', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const retailer = await createUser(t, ws, UserType.RETAILER);
    const other = await createWorkspace(t);
    const otherClass = (await seedCatalog(t, other)).productClassId;
    const base = { user_id: employee.id, period_type: 1, period_start: '2026-11-01', target_amount: 1000 };
    const cases: Array<[object, string, RegExp]> = [
      [{ ...base, target_amount: undefined }, 'target_amount', /target_amount or target_quantity is required/],
      [{ ...base, target_amount: null, target_quantity: null }, 'target_amount', /or target_quantity is required/],
      [{ ...base, target_amount: -1 }, 'target_amount', /target_amount/],
      [{ ...base, target_amount: 10.123 }, 'target_amount', /two decimal places/],
      [{ ...base, target_quantity: -5 }, 'target_quantity', /target_quantity/],
      [{ ...base, target_quantity: 2.5 }, 'target_quantity', /target_quantity/],
      [{ ...base, target_outlets: -1 }, 'target_outlets', /target_outlets/],
      [{ ...base, target_productive_calls: 'many' }, 'target_productive_calls', /target_productive_calls/],
      [{ ...base, period_start: '2026-11-15' }, 'period_start', /first day of a month/],
      [{ ...base, period_type: 2, period_start: '2026-11-01' }, 'period_start', /first day of a quarter/],
      [{ ...base, period_start: 'soon' }, 'period_start', /period_start/],
      [{ ...base, period_type: 3 }, 'period_type', /period_type/],
      [{ ...base, user_id: retailer.id }, 'user_id', /user_id does not name an employee of this workspace/],
      [{ ...base, user_id: ws.adminId }, 'user_id', /does not name an employee/],
      [{ ...base, user_id: 999999 }, 'user_id', /does not name an employee/],
      [{ ...base, product_class_id: otherClass }, 'product_class_id', /product_class_id does not name a product class of this workspace/],
      [{ ...base, user_id: undefined }, 'user_id', /user_id/],
    ];
    for (const [payload, field, message] of cases) {
      const res = await createTarget(ws.token, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().errors?.[0]?.field ?? res.json().message, res.body).toMatch(field);
      expect(res.json().message).toMatch(message);
    }
    expect(await countTargets(ws)).toBe(0);

    const ok = await createTarget(ws.token, base);
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().data.id;
    for (const [payload, field] of [
      [{ target_amount: null }, 'target_amount'],
      [{ period_start: '2026-11-02' }, 'period_start'],
      [{ user_id: retailer.id }, 'user_id'],
      [{ target_amount: -3 }, 'target_amount'],
    ] as const) {
      const res = await send('PUT', `/targets/${id}`, ws.token, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(field);
    }
    expect((await send('GET', `/targets/${id}`, ws.token)).json().data).toEqual(ok.json().data);

    for (const query of ['?period=2026-13', '?period=2026-Q0', '?period_type=5', '?sort=nope', '?colour=red']) {
      const res = await send('GET', `/targets${query}`, ws.token);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
    }
    for (const query of ['?period=2026-14', '?period=Q4', '?user_id=abc']) {
      const res = await send('GET', `/achievement${query}`, ws.token);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(query.slice(1, query.indexOf('=')));
    }
  });

  it('refuses a second target of an employee for the same period and class (409), “all products” included', async () => {
    const ws = await createWorkspace(t);
    const c = await seedCatalog(t, ws);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const base = { user_id: employee.id, period_type: 1, period_start: '2026-11-01', target_amount: 1000 };
    expect((await createTarget(ws.token, base)).statusCode).toBe(201);
    const again = await createTarget(ws.token, { ...base, target_amount: 5 });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toMatch(/already has a monthly target from 2026-11-01 for all products/);
    // Another class, another period type, another month: all different targets.
    const byClass = await createTarget(ws.token, { ...base, product_class_id: c.productClassId });
    expect(byClass.statusCode).toBe(201);
    expect((await createTarget(ws.token, { ...base, product_class_id: c.productClassId })).statusCode).toBe(409);
    expect((await createTarget(ws.token, { ...base, period_type: 2, period_start: '2026-10-01' })).statusCode).toBe(201);
    const december = await createTarget(ws.token, { ...base, period_start: '2026-12-01' });
    expect(december.statusCode).toBe(201);
    // Moving December onto November clashes too, and changes nothing.
    const moved = await send('PUT', `/targets/${december.json().data.id}`, ws.token, { period_start: '2026-11-01' });
    expect(moved.statusCode, moved.body).toBe(409);
    expect((await send('GET', `/targets/${december.json().data.id}`, ws.token)).json().data.period_start).toBe('2026-12-01');
    // Re-saving a target with its own values is no clash.
    expect((await send('PUT', `/targets/${byClass.json().data.id}`, ws.token, { target_amount: 1200 })).statusCode).toBe(200);
    expect(await countTargets(ws)).toBe(4);
  });

  it('lists with filters and sort', async () => {
    const ws = await createWorkspace(t);
    const c = await seedCatalog(t, ws);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    const make = async (payload: object) => (await createTarget(ws.token, { target_amount: 100, ...payload })).json().data.id as number;
    const aNov = await make({ user_id: a.id, period_type: 1, period_start: '2026-11-01' });
    const aNovMilk = await make({ user_id: a.id, period_type: 1, period_start: '2026-11-01', product_class_id: c.productClassId, target_amount: 50 });
    const aQ4 = await make({ user_id: a.id, period_type: 2, period_start: '2026-10-01', target_amount: 900 });
    const bNov = await make({ user_id: b.id, period_type: 1, period_start: '2026-11-01', target_amount: 70 });
    const bOct = await make({ user_id: b.id, period_type: 1, period_start: '2026-10-01' });
    const ids = async (query: string) => {
      const res = await send('GET', `/targets${query}`, ws.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((d: { id: number }) => d.id);
    };
    expect(await ids('?period=2026-11&sort=target_amount')).toEqual([aNovMilk, bNov, aNov]);
    expect(await ids('?period=2026-Q4')).toEqual([aQ4]);
    expect(await ids(`?user_id=${b.id}&sort=period_start`)).toEqual([bOct, bNov]);
    expect(await ids('?period_type=2')).toEqual([aQ4]);
    expect(await ids(`?product_class_id=${c.productClassId}`)).toEqual([aNovMilk]);
    expect((await ids('?sort=-id')).slice(0, 2)).toEqual([bOct, bNov]);
  });

  it('lets admins and keys manage; employees read their own only; customers get 403', async () => {
    const ws = await createWorkspace(t);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    const distributor = await createUser(t, ws, UserType.DISTRIBUTOR);
    const ofA = (await createTarget(ws.token, { user_id: a.id, period_type: 1, period_start: '2026-11-01', target_quantity: 10 })).json().data.id;
    const ofB = (await createTarget(ws.token, { user_id: b.id, period_type: 1, period_start: '2026-11-01', target_quantity: 20 })).json().data.id;

    expect((await createTarget(a.token, { user_id: a.id, period_type: 1, period_start: '2026-12-01', target_quantity: 1 })).statusCode).toBe(403);
    expect((await send('PUT', `/targets/${ofA}`, a.token, { target_quantity: 1000 })).statusCode).toBe(403);
    expect((await send('DELETE', `/targets/${ofA}`, a.token)).statusCode).toBe(403);
    const own = await send('GET', `/targets?user_id=${b.id}`, a.token);
    expect(own.json().data.map((d: { id: number }) => d.id)).toEqual([ofA]); // the filter cannot reach another's
    expect((await send('GET', `/targets/${ofA}`, a.token)).statusCode).toBe(200);
    expect((await send('GET', `/targets/${ofB}`, a.token)).statusCode).toBe(404);
    const achievement = await send('GET', '/achievement?period=2026-11', a.token);
    expect(achievement.json().data.targets.map((x: { target: { id: number } }) => x.target.id)).toEqual([ofA]);
    expect((await send('GET', `/achievement?period=2026-11&user_id=${b.id}`, a.token)).statusCode).toBe(403);

    for (const [method, url] of [['GET', '/targets'], ['GET', `/targets/${ofA}`], ['GET', '/achievement'], ['POST', '/targets'], ['DELETE', `/targets/${ofA}`]] as const) {
      const res = await send(method, url, distributor.token, method === 'POST' ? { user_id: a.id, period_type: 1, period_start: '2026-12-01', target_quantity: 1 } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }

    const key = await createApiKey(t, ws, { scopes: 'read,write,sales_plan' });
    const byKey = await t.request({ method: 'POST', url: '/api/v1/sales-plan/targets', apiKey: key.key, payload: { user_id: a.id, period_type: 1, period_start: '2026-12-01', target_quantity: 5 } });
    expect(byKey.statusCode, byKey.body).toBe(201);
    const readOnly = await createApiKey(t, ws, { scopes: 'read' });
    expect((await t.request({ method: 'GET', url: '/api/v1/sales-plan/targets', apiKey: readOnly.key })).json().pagination.total).toBe(3);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/sales-plan/targets/${ofA}`, apiKey: readOnly.key })).statusCode).toBe(403);
    const elsewhere = await createApiKey(t, ws, { scopes: 'read,write,orders' });
    expect((await t.request({ method: 'GET', url: '/api/v1/sales-plan/targets', apiKey: elsewhere.key })).statusCode).toBe(403);
  });

  it('keeps workspaces apart: another workspace’s target is 404 and its employees and orders count for nothing', async () => {
    const [A, B] = [await createWorkspace(t), await createWorkspace(t)];
    const employeeOfA = await createUser(t, A, UserType.EMPLOYEE);
    const ofA = (await createTarget(A.token, { user_id: employeeOfA.id, period_type: 1, period_start: '2026-11-01', target_amount: 10 })).json().data.id;
    for (const [method, payload] of [['GET'], ['PUT', { target_amount: 1 }], ['DELETE']] as const) {
      expect((await send(method, `/targets/${ofA}`, B.token, payload)).statusCode).toBe(404);
    }
    expect(await countTargets(B)).toBe(0);
    expect((await send('GET', '/achievement?period=2026-11', B.token)).json().data.targets).toEqual([]);
    const cross = await createTarget(B.token, { user_id: employeeOfA.id, period_type: 1, period_start: '2026-11-01', target_amount: 10 });
    expect(cross.statusCode).toBe(400);
    expect(cross.json().message).toMatch(/user_id does not name an employee/);
    expect((await send('GET', `/targets/${ofA}`, A.token)).json().data.target_amount).toBe(10);
  });

  describe('achievement', () => {
    let ws: Workspace;
    let c: Catalog;
    let a: { id: number; token: string };
    let b: { id: number; token: string };
    let cheeseVariant: number;
    const targets: Record<string, number> = {};

    /*
     * Orders of June 2025 (25 working days, Monday to Saturday; long past, so fully elapsed):
     *   A, 2025-06-10: 4 × 500 ml milk (28.50) = 114.00 and 2 × cheese (40.00) = 80.00
     *   A, 2025-06-30: 1 × 1 l milk (55.00) = 55.00
     *   A, 2025-06-15: 5 × 1 l milk = 275.00, cancelled — excluded
     *   A, 2025-05-31: 3 × 1 l milk = 165.00 — May (in Q2 only)
     *   A, 2025-07-01: 10 × 500 ml milk = 285.00 — July, excluded
     *   B, 2025-06-12: 2 × 500 ml milk = 57.00
     *   admin, 2025-06-12: 7 × 1 l milk — booked by nobody with a target
     * A all products June: amount 249.00, quantity 7. A milk June: amount 169.00, quantity 5.
     * A Q2 2025: 249 + 165 = 414.00, quantity 10.
     */
    beforeAll(async () => {
      ws = await createWorkspace(t);
      c = await seedCatalog(t, ws);
      const cls = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: `Cheese ${unique()}`, unit: 'kg' } });
      const cheese = await createProduct(t, ws, {
        product_name: `Paneer ${unique()}`,
        product_class_id: cls.json().data.id,
        product_hsn: '0406',
        variants: [{ variant_name: '1 kg', item_sku_code: `PN-${unique()}`, mrp: 45, sp: 40 }],
      });
      cheeseVariant = cheese.variantIds[0];
      a = await createUser(t, ws, UserType.EMPLOYEE);
      b = await createUser(t, ws, UserType.EMPLOYEE);
      const [half, litre] = c.variantIds;
      const order = (token: string, date: string, items: Array<[number, number]>) =>
        placeOrder(t, token, { user_id: c.retailerId, order_date: date, items: items.map(([v, q]) => ({ product_variant_id: v, quantity: q })) });
      await order(a.token, '2025-06-10', [[half, 4], [cheeseVariant, 2]]);
      await order(a.token, '2025-06-30', [[litre, 1]]);
      const cancelled = await order(a.token, '2025-06-15', [[litre, 5]]);
      const cancel = await t.request({ method: 'POST', url: `/api/v1/orders/${cancelled.id}/cancel`, token: ws.token, payload: { reason: 'Wrong outlet' } });
      expect(cancel.statusCode, cancel.body).toBe(200);
      await order(a.token, '2025-05-31', [[litre, 3]]);
      await order(a.token, '2025-07-01', [[half, 10]]);
      await order(b.token, '2025-06-12', [[half, 2]]);
      await order(ws.token, '2025-06-12', [[litre, 7]]);

      const make = async (name: string, payload: object) => {
        const res = await createTarget(ws.token, payload);
        expect(res.statusCode, res.body).toBe(201);
        targets[name] = res.json().data.id;
      };
      await make('aJune', { user_id: a.id, period_type: 1, period_start: '2025-06-01', target_amount: 1000, target_quantity: 20, target_productive_calls: 60 });
      await make('aJuneMilk', { user_id: a.id, period_type: 1, period_start: '2025-06-01', product_class_id: c.productClassId, target_quantity: 10 });
      await make('bJune', { user_id: b.id, period_type: 1, period_start: '2025-06-01', target_amount: 500 });
      await make('aQ2', { user_id: a.id, period_type: 2, period_start: '2025-04-01', target_amount: 3000 });
      await make('aFuture', { user_id: a.id, period_type: 1, period_start: '2099-01-01', target_amount: 2700, target_quantity: 0 });
    });

    const achievement = async (query: string, token = ws.token) => {
      const res = await send('GET', `/achievement${query}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };

    it('sums the lines each employee booked in the period, cancelled orders and other dates left out', async () => {
      const june = await achievement('?period=2025-06');
      expect(june).toMatchObject({ period: '2025-06', period_type: 1, period_start: '2025-06-01', period_end: '2025-06-30', as_of: expect.any(String) });
      const byId = Object.fromEntries(june.targets.map((x: { target: { id: number } }) => [x.target.id, x]));
      expect(Object.keys(byId).map(Number).sort()).toEqual([targets.aJune, targets.aJuneMilk, targets.bJune].sort());
      const fullyElapsed = { working_days: 25, working_days_elapsed: 25, working_days_remaining: 0, leave_days: 0 };
      expect(byId[targets.aJune]).toEqual({
        target: expect.objectContaining({ id: targets.aJune, user_id: a.id, target_productive_calls: 60 }),
        ...fullyElapsed,
        amount: { target: 1000, achieved: 249, achievement_pct: 24.9, expected_to_date: 1000, run_rate_needed: null },
        quantity: { target: 20, achieved: 7, achievement_pct: 35, expected_to_date: 20, run_rate_needed: null },
        // No visits in June 2025 (test/rest/sales-plan-calls.test.ts measures calls).
        productive_calls: { target: 60, achieved: 0, achievement_pct: 0, expected_to_date: 60, run_rate_needed: null },
        outlets: expect.objectContaining({ achieved: 0 }),
      });
      expect(byId[targets.aJuneMilk]).toEqual({
        target: expect.objectContaining({ id: targets.aJuneMilk, product_class_id: c.productClassId }),
        ...fullyElapsed,
        amount: { target: null, achieved: 169, achievement_pct: null, expected_to_date: null, run_rate_needed: null },
        quantity: { target: 10, achieved: 5, achievement_pct: 50, expected_to_date: 10, run_rate_needed: null },
        productive_calls: expect.objectContaining({ achieved: 0 }),
        outlets: expect.objectContaining({ achieved: 0 }),
      });
      expect(byId[targets.bJune]).toMatchObject({ amount: { target: 500, achieved: 57, achievement_pct: 11.4 }, quantity: { target: null, achieved: 2, achievement_pct: null } });
    });

    it('answers a quarter’s quarterly targets over the three months', async () => {
      const q2 = await achievement('?period=2025-Q2');
      expect(q2).toMatchObject({ period: '2025-Q2', period_type: 2, period_start: '2025-04-01', period_end: '2025-06-30' });
      expect(q2.targets).toHaveLength(1);
      // April–June 2025: 78 working days.
      expect(q2.targets[0]).toMatchObject({
        target: { id: targets.aQ2 },
        working_days: 78,
        working_days_elapsed: 78,
        amount: { target: 3000, achieved: 414, achievement_pct: 13.8, expected_to_date: 3000, run_rate_needed: null },
        quantity: { target: null, achieved: 10 },
      });
    });

    it('a future period: nothing elapsed or expected yet, the whole target spread over its working days', async () => {
      const future = await achievement(`?period=2099-01&user_id=${a.id}`);
      // January 2099: 27 working days; 2,700 / 27 = 100 a day. A target of 0 has no percentage.
      expect(future.targets).toEqual([
        expect.objectContaining({
          working_days: 27,
          working_days_elapsed: 0,
          working_days_remaining: 27,
          amount: { target: 2700, achieved: 0, achievement_pct: 0, expected_to_date: 0, run_rate_needed: 100 },
          quantity: { target: 0, achieved: 0, achievement_pct: null, expected_to_date: 0, run_rate_needed: 0 },
        }),
      ]);
    });

    it('filters one employee for admins; employees get theirs; the default period is the current month', async () => {
      expect((await achievement(`?period=2025-06&user_id=${b.id}`)).targets.map((x: { target: { id: number } }) => x.target.id)).toEqual([targets.bJune]);
      expect((await achievement('?period=2025-06', b.token)).targets.map((x: { target: { id: number } }) => x.target.id)).toEqual([targets.bJune]);
      const now = await achievement('');
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
      expect(now).toMatchObject({ period: today.slice(0, 7), period_type: 1, as_of: today, targets: [] });
    });
  });
});
