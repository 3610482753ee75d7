import { Logger, quickAddJob, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_ITEMS } from '../../jobs/crontab';
import { createTasks } from '../../jobs/tasks';
import { taskDepsOf } from '../../jobs/worker';
import { scopeToOrganization } from '../../src/db/tenant-filter';
import { plannedCallsOfDay } from '../../src/domains/beat-plans/beat-plan-days';
import { isoWeekday } from '../../src/domains/beat-plans/plan-dates';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { secretsFrom } from '../../src/secrets';
import { createApiKey, createUser, createWorkspace, uniquePhone, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** Today in `zone`, as YYYY-MM-DD. */
const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
/** The first date on or after `day` that is the ISO weekday `weekday`. */
const nextWeekday = (day: string, weekday: number) => shiftDay(day, (weekday - isoWeekday(day) + 7) % 7);
/** A zone behind UTC and one ahead of it: switching from the first to the second starts a new local day. */
const WEST = 'Pacific/Pago_Pago';
const EAST = 'Pacific/Kiritimati';

interface Masters {
  route: number;
  outlets: Record<string, number>;
}

/** Beat plan templates, the day view, the frozen day instances and the hourly cron task. */
describe('beat plans (REST)', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let m: Masters;
  let otherMasters: Masters;
  let employee: { id: number; token: string };
  let employee2: { id: number; token: string };
  let customerToken: string;

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = ws.token) =>
    t.request({ method, url: `/api/v1${url}`, token, payload });
  const sql = <T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    t.orm.em.fork().getConnection().execute<T>(query, params);
  const countTemplates = async (w: Workspace) => (await sql<{ n: number }[]>('select count(*)::int as n from beat_plan where organization_id = ?', [w.organizationId]))[0].n;
  const setZone = async (w: Workspace, zone: string) =>
    expect((await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: w.token, payload: { time_zone: zone } })).statusCode).toBe(200);

  async function masters(w: Workspace, outletNames: string[]): Promise<Masters> {
    const town = (await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: w.token, payload: { town_name: `Town ${uniquePhone()}` } })).json().data.id;
    const route = (await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: w.token, payload: { route_name: `Route ${uniquePhone()}`, town_id: town } })).json().data.id;
    const outlets: Record<string, number> = {};
    for (const name of outletNames) {
      const res = await t.request({ method: 'POST', url: '/api/v1/masters/outlets', token: w.token, payload: { outlet_name: name, route_id: route, town_id: town, phone: uniquePhone() } });
      expect(res.statusCode, res.body).toBe(201);
      outlets[name] = res.json().data.id;
    }
    return { route, outlets };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    m = await masters(ws, ['Sharma Stores', 'Apna Kirana', 'Metro Mart']);
    otherMasters = await masters(other, ['Elsewhere']);
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    employee2 = await createUser(t, ws, UserType.EMPLOYEE);
    customerToken = (await createUser(t, ws, UserType.RETAILER)).token;
  });
  afterAll(() => t.close());

  it('POST creates a template; without outlets it takes the route’s active outlets by name', async () => {
    const res = await req('POST', '/beat-plans/templates', { user_id: employee.id, route_id: m.route, weekday: 1, effective_from: '2030-01-07' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      user_id: employee.id,
      route_id: m.route,
      weekday: 1,
      frequency: 1,
      effective_from: '2030-01-07',
      effective_to: null,
      status: 1,
      revised_on: todayIn('UTC'),
      outlets: [
        { outlet_id: m.outlets['Apna Kirana'], outlet_name: 'Apna Kirana', sequence: 1 },
        { outlet_id: m.outlets['Metro Mart'], sequence: 2 },
        { outlet_id: m.outlets['Sharma Stores'], sequence: 3 },
      ],
    });
    const got = await req('GET', `/beat-plans/templates/${res.json().data.id}`);
    expect(got.json().data).toEqual(res.json().data);
  });

  it.each([
    ['missing effective_from', { effective_from: undefined }, /^effective_from/],
    ['a customer as user_id', { user_id: 'customer' }, /^user_id /],
    ['the admin as user_id', { user_id: 'admin' }, /^user_id /],
    ['another workspace’s route', { route_id: 'other' }, /^route_id /],
    ['weekday 0', { weekday: 0 }, /weekday/],
    ['weekday 8', { weekday: 8 }, /weekday/],
    ['frequency 3', { frequency: 3 }, /frequency/],
    ['a bad date', { effective_from: '2030-02-30' }, /^effective_from /],
    ['effective_to before effective_from', { effective_to: '2030-01-01' }, /^effective_to /],
    ['a monthly plan on a fifth weekday', { frequency: 4, effective_from: '2030-01-29' }, /^effective_from /],
    ['an outlet of another workspace', { outlets: ['Apna Kirana', 'other'] }, /^outlets\[1\] /],
    ['an outlet listed twice', { outlets: ['Apna Kirana', 'Metro Mart', 'Apna Kirana'] }, /^outlets\[2\] /],
  ])('%s → 400 naming the field, nothing written', async (_name, change, message) => {
    const before = await countTemplates(ws);
    const body: Record<string, unknown> = { user_id: employee2.id, route_id: m.route, weekday: 2, effective_from: '2030-01-08', ...change };
    if (body.user_id === 'customer') body.user_id = (await sql<{ id: number }[]>('select id from app_user where organization_id = ? and user_type = 3', [ws.organizationId]))[0].id;
    if (body.user_id === 'admin') body.user_id = ws.adminId;
    if (body.route_id === 'other') body.route_id = otherMasters.route;
    if (Array.isArray(body.outlets)) body.outlets = body.outlets.map((n: string) => (n === 'other' ? otherMasters.outlets.Elsewhere : m.outlets[n]));
    const res = await req('POST', '/beat-plans/templates', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await countTemplates(ws)).toBe(before);
  });

  it('a second template of the employee on the same weekday with overlapping dates → 409; disjoint dates are fine', async () => {
    const base = { user_id: employee2.id, route_id: m.route, weekday: 3 };
    expect((await req('POST', '/beat-plans/templates', { ...base, effective_from: '2030-03-01', effective_to: '2030-06-30' })).statusCode).toBe(201);
    const clash = await req('POST', '/beat-plans/templates', { ...base, effective_from: '2030-06-01' });
    expect(clash.statusCode, clash.body).toBe(409);
    expect((await req('POST', '/beat-plans/templates', { ...base, effective_from: '2029-01-01', effective_to: '2029-12-31' })).statusCode).toBe(201);
    expect((await req('POST', '/beat-plans/templates', { ...base, weekday: 4, effective_from: '2030-06-01' })).statusCode).toBe(201);
  });

  it('lists with filters and sort; employees see their own; customers 403; another workspace’s ids 404', async () => {
    const all = await req('GET', '/beat-plans/templates?sort=-effective_from&limit=50');
    expect(all.statusCode, all.body).toBe(200);
    const dates = all.json().data.map((p: { effective_from: string }) => p.effective_from);
    expect(dates).toEqual([...dates].sort().reverse());
    const own = await req('GET', '/beat-plans/templates', undefined, employee.token);
    expect(own.json().data.length).toBeGreaterThan(0);
    expect(own.json().data.every((p: { user_id: number }) => p.user_id === employee.id)).toBe(true);
    const byWeekday = await req('GET', `/beat-plans/templates?weekday=3&user_id=${employee2.id}`);
    expect(byWeekday.json().pagination.total).toBe(2);
    expect((await req('GET', '/beat-plans/templates?route_id=999999')).json().pagination.total).toBe(0);
    expect((await req('GET', '/beat-plans/templates?sort=nope')).statusCode).toBe(400);
    expect((await req('GET', '/beat-plans/templates', undefined, customerToken)).statusCode).toBe(403);
    expect((await req('GET', '/beat-plans', undefined, customerToken)).statusCode).toBe(403);
    const theirs = all.json().data.find((p: { user_id: number }) => p.user_id === employee2.id).id;
    expect((await req('GET', `/beat-plans/templates/${theirs}`, undefined, employee.token)).statusCode).toBe(404);
    expect((await req('POST', '/beat-plans/templates', { user_id: employee.id, route_id: m.route, weekday: 6, effective_from: '2030-01-01' }, employee.token)).statusCode).toBe(403);
    expect((await req('DELETE', `/beat-plans/templates/${theirs}`, undefined, employee.token)).statusCode).toBe(403);
    expect((await req('GET', `/beat-plans/templates/${theirs}`, undefined, other.token)).statusCode).toBe(404);
    expect((await req('PUT', `/beat-plans/templates/${theirs}`, { weekday: 5 }, other.token)).statusCode).toBe(404);
    expect((await req('DELETE', `/beat-plans/templates/${theirs}`, undefined, other.token)).statusCode).toBe(404);
    expect((await req('GET', '/beat-plans/templates', undefined, other.token)).json().pagination.total).toBe(0);
    const readKey = await createApiKey(t, ws, { scopes: 'read,beat_plans' });
    expect((await t.request({ method: 'GET', url: '/api/v1/beat-plans/templates', apiKey: readKey.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/beat-plans/templates/${theirs}`, apiKey: readKey.key })).statusCode).toBe(403);
  });

  it('PUT changes fields and replaces outlets; a new route takes its outlets by name; refusals change nothing', async () => {
    const e = await createUser(t, ws, UserType.EMPLOYEE);
    const created = await req('POST', '/beat-plans/templates', { user_id: e.id, route_id: m.route, weekday: 5, effective_from: '2030-05-03', outlets: [m.outlets['Metro Mart']] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    const read = async () => (await req('GET', `/beat-plans/templates/${id}`)).json().data;
    const before = await read();
    const refusals: Array<[object, number, RegExp]> = [
      [{ outlets: [m.outlets['Apna Kirana'], otherMasters.outlets.Elsewhere] }, 400, /^outlets\[1\] /],
      [{ effective_to: '2030-01-01' }, 400, /^effective_to /],
      [{ user_id: ws.adminId }, 400, /^user_id /],
      [{ weekday: 3, user_id: employee2.id, effective_from: '2030-04-01' }, 409, /overlapping/],
    ];
    for (const [body, status, message] of refusals) {
      const res = await req('PUT', `/beat-plans/templates/${id}`, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(message);
      expect(await read()).toEqual(before);
    }
    const changed = await req('PUT', `/beat-plans/templates/${id}`, { frequency: 2, effective_to: '2030-12-31', outlets: [m.outlets['Sharma Stores'], m.outlets['Apna Kirana']] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ frequency: 2, effective_to: '2030-12-31', outlets: [{ outlet_name: 'Sharma Stores', sequence: 1 }, { outlet_name: 'Apna Kirana', sequence: 2 }] });
    const second = await masters(ws, ['Zulu', 'Bravo']);
    const moved = await req('PUT', `/beat-plans/templates/${id}`, { route_id: second.route, effective_to: null });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ route_id: second.route, effective_to: null, outlets: [{ outlet_name: 'Bravo' }, { outlet_name: 'Zulu' }] });
  });

  it('future days follow the frequency: fortnightly every second week, monthly the n-th weekday', async () => {
    const e = await createUser(t, ws, UserType.EMPLOYEE);
    const monday = nextWeekday('2031-03-05', 1); // 2031-03-10
    const fortnightly = await req('POST', '/beat-plans/templates', { user_id: e.id, route_id: m.route, weekday: 1, frequency: 2, effective_from: '2031-03-05', outlets: [m.outlets['Metro Mart']] });
    expect(fortnightly.statusCode, fortnightly.body).toBe(201);
    const day = async (date: string) => (await req('GET', `/beat-plans?date=${date}&user_id=${e.id}`)).json().data;
    // effective_from is a Wednesday: its week is week 0, so the Monday after it (week 1) is off.
    expect(await day(monday)).toEqual([]);
    const on = await day(shiftDay(monday, 7));
    expect(on).toEqual([
      expect.objectContaining({ date: shiftDay(monday, 7), user_id: e.id, beat_plan_id: fortnightly.json().data.id, route_id: m.route, frozen: false }),
    ]);
    expect(on[0].outlets).toEqual([{ outlet_id: m.outlets['Metro Mart'], outlet_name: 'Metro Mart', sequence: 1, visited: false, productive: false, visit_id: null }]);
    expect(await day(shiftDay(monday, 14))).toEqual([]);
    expect(await day(shiftDay(monday, 21))).toHaveLength(1);

    // Monthly from the second Tuesday of April 2031 (2031-04-08): the second Tuesday of each month.
    const monthly = await req('POST', '/beat-plans/templates', { user_id: e.id, route_id: m.route, weekday: 2, frequency: 4, effective_from: '2031-04-02' });
    expect(monthly.statusCode, monthly.body).toBe(201);
    expect(await day('2031-04-01')).toEqual([]);
    expect(await day('2031-04-08')).toHaveLength(1);
    expect(await day('2031-04-15')).toEqual([]);
    expect(await day('2031-05-13')).toHaveLength(1);
    expect(await day('2031-05-06')).toEqual([]);
    expect((await req('GET', '/beat-plans?date=2031-02-30')).statusCode).toBe(400);
  });

  it('a started day is frozen: template edits and deactivation change later days only', async () => {
    const w = await createWorkspace(t);
    const mm = await masters(w, ['A Outlet', 'B Outlet', 'C Outlet']);
    const e = await createUser(t, w, UserType.EMPLOYEE);
    await setZone(w, WEST);
    const createdOn = todayIn(WEST);
    const startedDay = todayIn(EAST); // "today" once the workspace moves east: a day after createdOn
    expect(startedDay > createdOn).toBe(true);
    const template = await t.request({
      method: 'POST',
      url: '/api/v1/beat-plans/templates',
      token: w.token,
      payload: { user_id: e.id, route_id: mm.route, weekday: isoWeekday(startedDay), effective_from: createdOn, outlets: [mm.outlets['A Outlet'], mm.outlets['B Outlet']] },
    });
    expect(template.statusCode, template.body).toBe(201);
    const id = template.json().data.id;
    const view = async (query = '', token = w.token) => {
      const res = await t.request({ method: 'GET', url: `/api/v1/beat-plans${query}`, token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    expect((await view(`?date=${startedDay}`))[0]).toMatchObject({ frozen: false }); // still a future day

    await setZone(w, EAST); // the day has started
    const edit = await t.request({ method: 'PUT', url: `/api/v1/beat-plans/templates/${id}`, token: w.token, payload: { outlets: [mm.outlets['C Outlet'], mm.outlets['A Outlet']] } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data.outlets.map((o: { outlet_name: string }) => o.outlet_name)).toEqual(['C Outlet', 'A Outlet']);

    const today = await view('', e.token);
    expect(today).toHaveLength(1);
    expect(today[0]).toMatchObject({ date: startedDay, user_id: e.id, beat_plan_id: id, frozen: true });
    expect(today[0].outlets.map((o: { outlet_name: string; sequence: number }) => [o.outlet_name, o.sequence])).toEqual([
      ['A Outlet', 1],
      ['B Outlet', 2],
    ]);
    const nextWeek = await view(`?date=${shiftDay(startedDay, 7)}`);
    expect(nextWeek[0]).toMatchObject({ frozen: false });
    expect(nextWeek[0].outlets.map((o: { outlet_name: string }) => o.outlet_name)).toEqual(['C Outlet', 'A Outlet']);

    // The report's read: the frozen day's outlets.
    const em = t.orm.em.fork();
    scopeToOrganization(em, w.organizationId);
    expect(await plannedCallsOfDay(em, w.organizationId, null, startedDay)).toEqual(new Map([[e.id, [mm.outlets['A Outlet'], mm.outlets['B Outlet']]]]));

    // A template created after the day started does not join it; deactivation leaves it too.
    const e2 = await createUser(t, w, UserType.EMPLOYEE);
    const late = await t.request({ method: 'POST', url: '/api/v1/beat-plans/templates', token: w.token, payload: { user_id: e2.id, route_id: mm.route, weekday: isoWeekday(startedDay), effective_from: startedDay } });
    expect(late.statusCode, late.body).toBe(201);
    expect((await view()).map((d: { user_id: number }) => d.user_id)).toEqual([e.id]);
    expect((await view(`?date=${shiftDay(startedDay, 7)}`)).map((d: { user_id: number }) => d.user_id)).toEqual([e.id, e2.id]);
    const gone = await t.request({ method: 'DELETE', url: `/api/v1/beat-plans/templates/${id}`, token: w.token });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().data.status).toBe(0);
    expect((await view())[0].outlets).toHaveLength(2);
    expect((await view(`?date=${shiftDay(startedDay, 7)}`)).map((d: { user_id: number }) => d.user_id)).toEqual([e2.id]);
    expect((await t.request({ method: 'PUT', url: `/api/v1/beat-plans/templates/${id}`, token: w.token, payload: { weekday: 1 } })).statusCode).toBe(409);
    const stored = await sql<{ n: number }[]>('select count(*)::int as n from beat_plan_day where organization_id = ?', [w.organizationId]);
    expect(stored[0].n).toBe(1);
    expect(await view('', (await createUser(t, other, UserType.EMPLOYEE)).token)).toEqual([]); // another workspace sees none of it
  });

  it('the hourly cron task freezes today for every workspace whose day started; a second run changes nothing', async () => {
    expect(CRON_ITEMS).toContainEqual(expect.objectContaining({ task: 'materialise_beat_plan_days', match: '5 * * * *' }));
    const w = await createWorkspace(t);
    const mm = await masters(w, ['Only Outlet']);
    const e = await createUser(t, w, UserType.EMPLOYEE);
    await setZone(w, WEST);
    const startedDay = todayIn(EAST);
    const created = await t.request({ method: 'POST', url: '/api/v1/beat-plans/templates', token: w.token, payload: { user_id: e.id, route_id: mm.route, weekday: isoWeekday(startedDay), effective_from: todayIn(WEST) } });
    expect(created.statusCode, created.body).toBe(201);
    await setZone(w, EAST);
    const logger = new Logger(() => () => undefined);
    const tasks = createTasks(taskDepsOf({ config: t.config, secrets: secretsFrom(t.config.jwtSecret!), orm: t.orm }));
    const run = async () => {
      await quickAddJob({ connectionString: t.db.url, logger }, 'materialise_beat_plan_days', {});
      await runOnce({ connectionString: t.db.url, taskList: tasks, logger, noHandleSignals: true, concurrency: 1 });
    };
    const days = () =>
      sql<{ user_id: number; date: string; outlet_id: number; sequence: number }[]>(
        `select d.user_id, to_char(d.date, 'YYYY-MM-DD') as date, o.outlet_id, o.sequence
         from beat_plan_day d join beat_plan_day_outlet o on o.day_id = d.id and o.organization_id = d.organization_id where d.organization_id = ?`,
        [w.organizationId],
      );
    expect(await days()).toEqual([]);
    await run();
    expect(await days()).toEqual([{ user_id: e.id, date: startedDay, outlet_id: mm.outlets['Only Outlet'], sequence: 1 }]);
    await run();
    expect(await days()).toHaveLength(1);
  });
});
