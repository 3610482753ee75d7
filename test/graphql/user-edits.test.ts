import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const USER_FIELDS = 'id firstName lastName officialEmail primaryContactNumber userType status storeName role { id } town { id } route { id }';
const USER = `query($id: Int!) { user(id: $id) { ${USER_FIELDS} } }`;
const USERS = `query($roleId: Int, $townId: Int, $routeId: Int) { users(roleId: $roleId, townId: $townId, routeId: $routeId, limit: 100) { nodes { id } } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { ${USER_FIELDS} } }`;
const SET_STATUS = `mutation($id: Int!, $status: ActiveStatus!) { setUserStatus(id: $id, status: $status) { id status } }`;
const RESET = 'mutation($id: Int!) { sendUserPasswordReset(id: $id) { userId sentTo message } }';
const ME = '{ me { id } }';

/** The same user edits as REST, over GraphQL: same service methods, same errors, camelCase field names. */
describe('GraphQL user edits', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let cat: Catalog;
  let key: { apiKey: string };
  let employee: { id: number; token: string };
  let otherEmployeeId: number;
  let townId: number;
  let routeId: number;
  let otherTownId: number;

  const gql = (query: string, variables?: Record<string, unknown>, credential: string | { apiKey: string } = ws.token) =>
    t.graphql(query, variables, credential) as Promise<GraphqlAnswer>;
  const read = async (id: number) => expectGraphqlData(await gql(USER, { id })).user;
  const ids = async (filter: Record<string, unknown>) => expectGraphqlData(await gql(USERS, filter)).users.nodes.map((u: { id: number }) => u.id).sort();

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Gql User Edits Dairy');
    other = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    key = { apiKey: (await createApiKey(t, ws, { scopes: 'read,write' })).key };
    employee = await createUser(t, ws, UserType.EMPLOYEE);
    otherEmployeeId = (await createUser(t, other, UserType.EMPLOYEE)).id;
    const town = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name: `Gql Town ${unique()}` } });
    townId = town.json().data.id;
    const route = await t.request({ method: 'POST', url: '/api/v1/masters/routes', token: ws.token, payload: { route_name: `Gql Route ${unique()}`, town_id: townId } });
    routeId = route.json().data.id;
    const otherTown = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: other.token, payload: { town_name: `Far Town ${unique()}` } });
    otherTownId = otherTown.json().data.id;
  });
  afterAll(() => t.close());

  it('users takes roleId, townId and routeId, each checked to be the workspace’s', async () => {
    const placed = await createUser(t, ws, UserType.RETAILER, { town_id: townId, route_id: routeId });
    expect(await ids({ townId })).toEqual([placed.id]);
    expect(await ids({ routeId, roleId: ws.roles.Retailer })).toEqual([placed.id]);
    expect(await ids({ townId, roleId: ws.roles.Distributor })).toEqual([]);
    expectGraphqlError(await gql(USERS, { roleId: other.roles.Admin }), 'BAD_USER_INPUT', 'roleId does not name a record of this workspace');
    expectGraphqlError(await gql(USERS, { townId: otherTownId }), 'BAD_USER_INPUT', 'townId does not name a record of this workspace');
    expectGraphqlError(await gql(USERS, { routeId: 999999999 }), 'BAD_USER_INPUT', 'routeId does not name a record of this workspace');
  });

  it('updateUser changes the given fields; the same refusals as REST, nothing changed', async () => {
    const d = await createUser(t, ws, UserType.DISTRIBUTOR);
    const n = unique();
    const { updateUser } = expectGraphqlData(
      await gql(UPDATE, { id: d.id, input: { firstName: 'Gql', officialEmail: `gql.${n}@example.test`, storeName: 'Gql Mart', routeId, userType: 'RETAILER' } }),
    );
    expect(updateUser).toMatchObject({ id: d.id, firstName: 'Gql', lastName: d.body.last_name, officialEmail: `gql.${n}@example.test`, storeName: 'Gql Mart', userType: 'RETAILER', town: { id: townId }, route: { id: routeId } });
    expect(await read(d.id)).toEqual(updateUser);

    const before = await read(d.id);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ firstName: ' ' }, 'firstName is required'],
      [{ officialEmail: 'nope' }, 'officialEmail must be a valid e-mail address'],
      [{ primaryContactNumber: '1' }, 'primaryContactNumber must be a phone number of 10 to 15 digits, optionally starting with +'],
      [{ roleId: other.roles.Retailer }, 'roleId does not name an active role of this workspace'],
      [{ townId: otherTownId }, 'townId does not name a town of this workspace'],
      [{ townId: null }, 'townId cannot be cleared while the user keeps a route; clear routeId too'],
      [{ userType: 'EMPLOYEE', storeName: 'Shop' }, 'storeName is only for distributors and retailers'],
    ];
    for (const [input, message] of bad) expectGraphqlError(await gql(UPDATE, { id: d.id, input: { lastName: 'Would change', ...input } }), 'BAD_USER_INPUT', message);
    const taken = await read(employee.id);
    expectGraphqlError(await gql(UPDATE, { id: d.id, input: { officialEmail: taken.officialEmail } }), 'CONFLICT', 'A user with this e-mail address already exists');
    expectGraphqlError(await gql(UPDATE, { id: d.id, input: { primaryContactNumber: taken.primaryContactNumber } }), 'CONFLICT', 'A user with this phone number already exists');
    expectGraphqlError(await gql(UPDATE, { id: otherEmployeeId, input: { firstName: 'x' } }), 'NOT_FOUND');
    expectGraphqlError(await gql(UPDATE, { id: d.id, input: { firstName: 'x' } }, employee.token), 'FORBIDDEN');
    expectGraphqlError(await gql(UPDATE, { id: d.id, input: { firstName: 'x' } }, cat.distributorToken), 'FORBIDDEN');
    expectGraphqlError(await gql(UPDATE, { id: employee.id, input: { userType: 'ADMIN' } }, key), 'FORBIDDEN', 'API keys cannot make a user an administrator; an administrator must do it signed in');
    expectGraphqlError(await gql(UPDATE, { id: ws.adminId, input: { firstName: 'x' } }, key), 'FORBIDDEN', 'API keys cannot change an administrator; an administrator must do it signed in');
    expect(await read(d.id)).toEqual(before);
    expect(expectGraphqlData(await gql(UPDATE, { id: d.id, input: { lastName: 'ByKey' } }, key)).updateUser.lastName).toBe('ByKey');
  });

  it('updateUser follows the user_type rule: orders keep a customer a customer, an admin never becomes one, the last admin stays', async () => {
    const d = await createUser(t, ws, UserType.DISTRIBUTOR);
    await placeOrder(t, ws.token, { user_id: d.id, items: [{ product_variant_id: cat.variantIds[0], quantity: 1 }] });
    expectGraphqlError(await gql(UPDATE, { id: d.id, input: { userType: 'EMPLOYEE' } }), 'CONFLICT', /has 1 order\(s\) as customer or placer, so they cannot change from a distributor to an employee/);
    expect(expectGraphqlData(await gql(UPDATE, { id: d.id, input: { userType: 'RETAILER' } })).updateUser.userType).toBe('RETAILER');
    const fresh = await createUser(t, ws, UserType.RETAILER);
    expect(expectGraphqlData(await gql(UPDATE, { id: fresh.id, input: { userType: 'EMPLOYEE' } })).updateUser).toMatchObject({ userType: 'EMPLOYEE', storeName: null });

    const w = await createWorkspace(t);
    expectGraphqlError(await gql(UPDATE, { id: w.adminId, input: { userType: 'DISTRIBUTOR' } }, w.token), 'CONFLICT', 'An administrator cannot become a distributor; create a separate customer account instead');
    expectGraphqlError(await gql(UPDATE, { id: w.adminId, input: { userType: 'EMPLOYEE' } }, w.token), 'CONFLICT', /last active administrator/);
    expect(expectGraphqlData(await gql(ME, {}, w.token)).me.id).toBe(w.adminId);
  });

  it('setUserStatus: the token dies at once, orders stay, reactivation takes a seat; not yourself nor the last admin', async () => {
    const d = await createUser(t, ws, UserType.DISTRIBUTOR);
    const order = await placeOrder(t, d.token, { user_id: d.id, items: [{ product_variant_id: cat.variantIds[0], quantity: 3 }] });
    expectGraphqlData(await gql(ME, {}, d.token));
    expect(expectGraphqlData(await gql(SET_STATUS, { id: d.id, status: 'INACTIVE' })).setUserStatus).toEqual({ id: d.id, status: 'INACTIVE' });
    expectGraphqlError(await gql(ME, {}, d.token), 'UNAUTHENTICATED', 'Session has ended; sign in again');
    const kept = expectGraphqlData(await gql(`query($id: Int!) { order(id: $id) { id customer { id status } } }`, { id: order.id }));
    expect(kept.order).toEqual({ id: order.id, customer: { id: d.id, status: 'INACTIVE' } });

    await t.orm.em.fork().getConnection().execute('update organization set max_users = (select count(*) from app_user where organization_id = ? and status = 1) where id = ?', [ws.organizationId, ws.organizationId]);
    expectGraphqlError(await gql(SET_STATUS, { id: d.id, status: 'ACTIVE' }), 'BAD_USER_INPUT', /limit of \d+ active users/);
    await t.orm.em.fork().getConnection().execute('update organization set max_users = 1000 where id = ?', [ws.organizationId]);
    expect(expectGraphqlData(await gql(SET_STATUS, { id: d.id, status: 'ACTIVE' }, key)).setUserStatus.status).toBe('ACTIVE');
    const login = await t.graphql('mutation($i: LoginInput!) { login(input: $i) { token } }', { i: { email: d.body.official_email, password: 'password123', challengeToken: 'x' } });
    expect(login.errors, JSON.stringify(login.errors)).toBeUndefined();

    expectGraphqlError(await gql(SET_STATUS, { id: ws.adminId, status: 'INACTIVE' }), 'CONFLICT', 'You cannot deactivate your own account; another administrator can');
    expectGraphqlError(await gql(SET_STATUS, { id: ws.adminId, status: 'INACTIVE' }, key), 'CONFLICT', "Cannot deactivate the workspace's last active administrator; make another user an administrator first");
    expectGraphqlError(await gql(SET_STATUS, { id: otherEmployeeId, status: 'INACTIVE' }), 'NOT_FOUND');
    expectGraphqlError(await gql(SET_STATUS, { id: d.id, status: 'INACTIVE' }, employee.token), 'FORBIDDEN');
    expect((await read(ws.adminId)).status).toBe('ACTIVE');
    expect((await read(d.id)).status).toBe('ACTIVE');
  });

  it('sendUserPasswordReset e-mails a reset link; 409 without e-mail; 403 for employees; 404 elsewhere', async () => {
    const e = await createUser(t, ws, UserType.EMPLOYEE);
    const before = (await t.outbox()).length;
    expect(expectGraphqlData(await gql(RESET, { id: e.id })).sendUserPasswordReset).toEqual({
      userId: e.id,
      sentTo: e.body.official_email,
      message: `A password reset link is being e-mailed to ${e.body.official_email}`,
    });
    const sent = (await t.outbox()).slice(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([[e.body.official_email, 'Reset your Gql User Edits Dairy password']]);
    expect(sent[0].text).toMatch(/\/auth\/set-password\?token=[A-Za-z0-9_-]{43}\n/);

    const noEmail = await createUser(t, ws, UserType.RETAILER, { official_email: null });
    expectGraphqlError(await gql(RESET, { id: noEmail.id }), 'CONFLICT', 'This user has no e-mail address to send a reset link to; give them one first');
    expectGraphqlError(await gql(RESET, { id: e.id }, employee.token), 'FORBIDDEN');
    expectGraphqlError(await gql(RESET, { id: otherEmployeeId }, key), 'NOT_FOUND');
    expect((await t.outbox()).length).toBe(before + 1);
  });
});
