import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoWeekday } from '../../src/domains/beat-plans/plan-dates';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createUser, createWorkspace, uniquePhone, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const TEMPLATE_FIELDS = 'id userId userName routeId routeName weekday frequency effectiveFrom effectiveTo status revisedOn outlets { outletId outletName sequence }';
const CREATE = `mutation($input: CreateBeatPlanTemplateInput!) { createBeatPlanTemplate(input: $input) { ${TEMPLATE_FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateBeatPlanTemplateInput!) { updateBeatPlanTemplate(id: $id, input: $input) { ${TEMPLATE_FIELDS} } }`;
const DEACTIVATE = `mutation($id: Int!) { deactivateBeatPlanTemplate(id: $id) { id status } }`;
const TEMPLATE = `query($id: Int!) { beatPlanTemplate(id: $id) { ${TEMPLATE_FIELDS} } }`;
const TEMPLATES = `query($userId: Int, $weekday: Int, $status: ActiveStatus, $sort: [BeatPlanTemplateSort!]) {
  beatPlanTemplates(userId: $userId, weekday: $weekday, status: $status, sort: $sort, limit: 50) { nodes { id userId weekday effectiveFrom } pageInfo { total } } }`;
const DAYS = `query($date: String, $userId: Int) { beatPlanDays(date: $date, userId: $userId) {
  date userId userName beatPlanId routeId routeName frozen outlets { outletId outletName sequence visited productive visitId } } }`;

const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

/** Beat plans over GraphQL: the same service methods, rules and errors as REST. */
describe('beat plans (GraphQL)', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let route: number;
  let outlets: number[];
  let employee: { id: number; token: string };
  let customerToken: string;
  const gql = (query: string, variables?: Record<string, unknown>, token = ws.token) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    other = await createWorkspace(t);
    const town = (await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: 'Pune' } })).json().data.id;
    route = (await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: ws.token, payload: { route_name: 'Camp', town_id: town } })).json().data.id;
    outlets = [];
    for (const name of ['Zeta', 'Alpha']) {
      outlets.push((await t.request({ method: 'POST', url: '/api/v1/masters/outlets', token: ws.token, payload: { outlet_name: name, route_id: route, town_id: town, phone: uniquePhone() } })).json().data.id);
    }
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    customerToken = (await createUser(t, ws, UserType.DISTRIBUTOR)).token;
  });
  afterAll(() => t.close());

  it('creates, reads, lists, updates and deactivates a template', async () => {
    const { createBeatPlanTemplate: created } = expectGraphqlData(
      await gql(CREATE, { input: { userId: employee.id, routeId: route, weekday: 5, frequency: 'FORTNIGHTLY', effectiveFrom: '2031-01-03' } }),
    );
    expect(created).toMatchObject({ userId: employee.id, routeId: route, routeName: 'Camp', weekday: 5, frequency: 'FORTNIGHTLY', effectiveTo: null, status: 'ACTIVE' });
    expect(created.outlets.map((o: { outletName: string }) => o.outletName)).toEqual(['Alpha', 'Zeta']); // by name when none are given
    expect(expectGraphqlData(await gql(TEMPLATE, { id: created.id })).beatPlanTemplate).toEqual(created);

    const { updateBeatPlanTemplate: updated } = expectGraphqlData(await gql(UPDATE, { id: created.id, input: { outlets: [outlets[0]], effectiveTo: '2031-12-31' } }));
    expect(updated).toMatchObject({ effectiveTo: '2031-12-31', weekday: 5, outlets: [{ outletId: outlets[0], outletName: 'Zeta', sequence: 1 }] });

    const list = expectGraphqlData(await gql(TEMPLATES, { userId: employee.id, weekday: 5, sort: [{ field: 'EFFECTIVE_FROM', direction: 'DESC' }] })).beatPlanTemplates;
    expect(list.pageInfo.total).toBe(1);
    expect(expectGraphqlData(await gql(TEMPLATES, {}, employee.token)).beatPlanTemplates.nodes.map((n: { id: number }) => n.id)).toEqual([created.id]);

    expect(expectGraphqlData(await gql(DEACTIVATE, { id: created.id })).deactivateBeatPlanTemplate).toEqual({ id: created.id, status: 'INACTIVE' });
    expect(expectGraphqlData(await gql(TEMPLATES, { status: 'ACTIVE' })).beatPlanTemplates.pageInfo.total).toBe(0);
  });

  it('refuses bad input naming the camelCase field, overlaps with CONFLICT, wrong callers and other workspaces', async () => {
    const input = { userId: employee.id, routeId: route, weekday: 2, effectiveFrom: '2031-02-04' };
    expectGraphqlError(await gql(CREATE, { input: { ...input, weekday: 9 } }), 'BAD_USER_INPUT', /^weekday /);
    expectGraphqlError(await gql(CREATE, { input: { ...input, effectiveTo: '2031-01-01' } }), 'BAD_USER_INPUT', /^effectiveTo /);
    expectGraphqlError(await gql(CREATE, { input: { ...input, outlets: [outlets[1], outlets[1]] } }), 'BAD_USER_INPUT', /^outlets\[1\] /);
    expectGraphqlError(await gql(CREATE, { input: { ...input, userId: ws.adminId } }), 'BAD_USER_INPUT', /^userId /);
    expectGraphqlError(await gql(CREATE, { input: { ...input, frequency: 'MONTHLY', effectiveFrom: '2031-04-29' } }), 'BAD_USER_INPUT', /^effectiveFrom /);
    expect(expectGraphqlData(await gql(TEMPLATES, { weekday: 2 })).beatPlanTemplates.pageInfo.total).toBe(0); // nothing written

    const { createBeatPlanTemplate: created } = expectGraphqlData(await gql(CREATE, { input }));
    expectGraphqlError(await gql(CREATE, { input: { ...input, effectiveFrom: '2031-06-01' } }), 'CONFLICT');
    expectGraphqlError(await gql(CREATE, { input }, employee.token), 'FORBIDDEN');
    expectGraphqlError(await gql(UPDATE, { id: created.id, input: { weekday: 3 } }, employee.token), 'FORBIDDEN');
    expectGraphqlError(await gql(TEMPLATES, {}, customerToken), 'FORBIDDEN');
    expectGraphqlError(await gql(DAYS, {}, customerToken), 'FORBIDDEN');
    expectGraphqlError(await gql(TEMPLATE, { id: created.id }, other.token), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE, { id: created.id, input: { weekday: 3 } }, other.token), 'NOT_FOUND');
    expectGraphqlError(await gql(DEACTIVATE, { id: created.id }, other.token), 'NOT_FOUND');
    expect(expectGraphqlData(await gql(TEMPLATE, { id: created.id })).beatPlanTemplate.weekday).toBe(2);
  });

  it('beatPlanDays: the started day stays frozen after an edit; a future day shows the edit', async () => {
    const w = await createWorkspace(t);
    const town = (await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: w.token, payload: { town_name: 'Nashik' } })).json().data.id;
    const r = (await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: w.token, payload: { route_name: 'Ring', town_id: town } })).json().data.id;
    const ids: number[] = [];
    for (const name of ['One', 'Two']) {
      ids.push((await t.request({ method: 'POST', url: '/api/v1/masters/outlets', token: w.token, payload: { outlet_name: name, route_id: r, town_id: town, phone: uniquePhone() } })).json().data.id);
    }
    const e = await createUser(t, w, UserType.EMPLOYEE);
    const setZone = async (zone: string) => expect((await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: w.token, payload: { time_zone: zone } })).statusCode).toBe(200);
    await setZone('Pacific/Pago_Pago');
    const started = todayIn('Pacific/Kiritimati');
    const { createBeatPlanTemplate: tpl } = expectGraphqlData(
      await gql(CREATE, { input: { userId: e.id, routeId: r, weekday: isoWeekday(started), effectiveFrom: todayIn('Pacific/Pago_Pago'), outlets: ids } }, w.token),
    );
    await setZone('Pacific/Kiritimati');
    expectGraphqlData(await gql(UPDATE, { id: tpl.id, input: { outlets: [ids[1]] } }, w.token));
    const [today] = expectGraphqlData(await gql(DAYS, {}, e.token)).beatPlanDays;
    expect(today).toMatchObject({ date: started, userId: e.id, beatPlanId: tpl.id, routeId: r, routeName: 'Ring', frozen: true });
    expect(today.outlets).toEqual([
      { outletId: ids[0], outletName: 'One', sequence: 1, visited: false, productive: false, visitId: null },
      { outletId: ids[1], outletName: 'Two', sequence: 2, visited: false, productive: false, visitId: null },
    ]);
    const [later] = expectGraphqlData(await gql(DAYS, { date: shiftDay(started, 7), userId: e.id }, w.token)).beatPlanDays;
    expect(later).toMatchObject({ frozen: false, outlets: [{ outletId: ids[1], sequence: 1 }] });
    expectGraphqlError(await gql(DAYS, { date: 'tomorrow' }, w.token), 'BAD_USER_INPUT', /^date /);
    expect(expectGraphqlData(await gql(DAYS, { date: started }, other.token)).beatPlanDays).toEqual([]);
  });
});
