import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, seedCatalog, signIn, unique, uniquePhone, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';


const USER_FIELDS = 'id firstName lastName officialEmail primaryContactNumber userType status storeName organizationId role { id name } town { name } route { name }';
const CONFIG_FIELDS = 'primaryColor secondaryColor orderTiming pageLimit chatbotEnabled gstin logo orgFooterName organizationId';
const UPDATE_CONFIG = `mutation($input: WorkspaceConfigInput!) { updateWorkspaceConfig(input: $input) { ${CONFIG_FIELDS} } }`;
const CREATE_USER = `mutation($input: CreateUserInput!) { createUser(input: $input) { ${USER_FIELDS} } }`;
const USERS = `query($userType: UserType, $status: ActiveStatus, $search: String, $page: Int, $limit: Int) {
  users(userType: $userType, status: $status, search: $search, page: $page, limit: $limit) { nodes { id firstName userType role { name } } pageInfo { total page limit totalPages } } }`;
const CREATE_PRODUCT = `mutation($input: CreateProductInput!) {
  createProduct(input: $input) { id name hsn colorCode description image status productClass { id name }
    variants { variantName itemSkuCode mrp sp variantSize variantQuantity containerQuantity status product { id } } } }`;
const SIGNUP = `mutation($input: SignupInput!) { signup(input: $input) { token user { id firstName userType role { name } } workspace { id slug displayName plan status } } }`;

describe('GraphQL workspace, users, catalogue and masters', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  let ws2: Workspace;
  let cat2: Catalog;
  let employeeToken: string;
  const gql = (query: string, variables?: Record<string, unknown>, token?: string) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;
  const userTotal = async (token = ws.token) => expectGraphqlData(await gql(USERS, {}, token)).users.pageInfo.total as number;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t, 'Acme Dairy');
    cat = await seedCatalog(t, ws);
    ws2 = await createWorkspace(t);
    cat2 = await seedCatalog(t, ws2);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
  });
  afterAll(() => t.close());

  describe('me, workspace and workspaceConfig', () => {
    it('answers me for the signed-in user only', async () => {
      const { me } = expectGraphqlData(await gql(`{ me { ${USER_FIELDS} } }`, {}, ws.token));
      expect(me).toMatchObject({ id: ws.adminId, firstName: 'Admin', userType: 'ADMIN', status: 'ACTIVE', organizationId: ws.organizationId, role: { id: ws.roles.Admin, name: 'Admin' } });
      expect(expectGraphqlData(await gql('{ me { id userType } }', {}, cat.distributorToken)).me).toEqual({ id: cat.distributorId, userType: 'DISTRIBUTOR' });
      expectGraphqlError(await gql('{ me { id } }'), 'UNAUTHENTICATED');
      expectGraphqlError(await gql('{ me { id } }', {}, 'not-a-token'), 'UNAUTHENTICATED');
    });

    it('shows the caller’s workspace and its default configuration', async () => {
      const { workspace } = expectGraphqlData(await gql('{ workspace { id workspaceId slug displayName domain plan status maxUsers } }', {}, employeeToken));
      expect(workspace).toEqual({ id: ws.organizationId, workspaceId: expect.stringMatching(/^ws_[0-9a-f]{16}$/), slug: ws.slug, displayName: 'Acme Dairy', domain: null, plan: 'FREE', status: 'TRIAL', maxUsers: 25 });
      const { workspaceConfig } = expectGraphqlData(await gql(`{ workspaceConfig { ${CONFIG_FIELDS} } }`, {}, cat.distributorToken));
      expect(workspaceConfig).toEqual({ primaryColor: '#1F4E79', secondaryColor: '#F2A900', orderTiming: '00:00-23:59', pageLimit: 20, chatbotEnabled: false, gstin: '', logo: null, orgFooterName: 'Acme Dairy', organizationId: ws.organizationId });
    });

    it('lets only admins update the configuration, validating every field first', async () => {
      const read = async (token = ws.token) => expectGraphqlData(await gql(`{ workspaceConfig { ${CONFIG_FIELDS} } }`, {}, token)).workspaceConfig;
      const before = await read();
      expectGraphqlError(await gql(UPDATE_CONFIG, { input: { primaryColor: '#000000' } }, employeeToken), 'FORBIDDEN');
      expectGraphqlError(await gql(UPDATE_CONFIG, { input: { primaryColor: '#000000' } }, cat.distributorToken), 'FORBIDDEN');
      expectGraphqlError(await gql(UPDATE_CONFIG, { input: { primaryColor: '#000000' } }), 'UNAUTHENTICATED');
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ secondaryColor: '#00FF00', primaryColor: 'blue' }, 'primaryColor must be a colour in the form #RRGGBB'],
        [{ primaryColor: '#12345' }, 'primaryColor must be a colour in the form #RRGGBB'],
        [{ orderTiming: '18:00-08:00' }, 'orderTiming must start before it ends'],
        [{ pageLimit: 0 }, 'pageLimit must be an integer from 1 to 100'],
        [{ logo: 'ftp://cdn.example.test/logo.png' }, 'logo must be an http or https URL'],
        [{ gstin: 'SHORT' }, 'gstin must be a 15-character GSTIN'],
      ];
      for (const [input, message] of bad) expectGraphqlError(await gql(UPDATE_CONFIG, { input }, ws.token), 'BAD_USER_INPUT', message);
      expect(await read()).toEqual(before);

      const input = { primaryColor: '#abcdef', orderTiming: '08:00-18:30', pageLimit: 50, chatbotEnabled: true, gstin: '27aapfu0939f1zv', logo: 'https://cdn.example.test/logo.png' };
      const updated = expectGraphqlData(await gql(UPDATE_CONFIG, { input }, ws.token)).updateWorkspaceConfig;
      const expected = { ...before, ...input, primaryColor: '#ABCDEF', gstin: '27AAPFU0939F1ZV' };
      expect(updated).toEqual(expected);
      expect(await read(employeeToken)).toEqual(expected);
      expect((await read(ws2.token)).primaryColor).toBe('#1F4E79');
    });
  });

  describe('users', () => {
    const newUser = (over: Record<string, unknown> = {}) => {
      const n = unique();
      return { firstName: `GraphqlAnswer${n}`, lastName: 'Person', officialEmail: `GraphqlAnswer.User${n}@Example.TEST`, primaryContactNumber: uniquePhone(), password: 'password123', roleId: ws.roles.Retailer, userType: 'RETAILER', storeName: `Shop ${n}`, ...over };
    };

    it('creates a user as admin, normalising e-mail and phone', async () => {
      const town = expectGraphqlData(await gql('mutation { createTown(input: { name: "Nashik" }) { id } }', {}, ws.token)).createTown;
      const input = newUser({ primaryContactNumber: '+91 98765-43210', townId: town.id });
      const before = await userTotal();
      const { createUser: user } = expectGraphqlData(await gql(CREATE_USER, { input }, ws.token));
      expect(user).toEqual({
        id: expect.any(Number), firstName: input.firstName, lastName: 'Person', officialEmail: (input.officialEmail as string).toLowerCase(),
        primaryContactNumber: '+919876543210', userType: 'RETAILER', status: 'ACTIVE', storeName: input.storeName,
        organizationId: ws.organizationId, role: { id: ws.roles.Retailer, name: 'Retailer' }, town: { name: 'Nashik' }, route: null,
      });
      expect(await userTotal()).toBe(before + 1);
      expect(expectGraphqlData(await gql(`query($id: Int!) { user(id: $id) { id storeName town { name } } }`, { id: user.id }, employeeToken)).user).toEqual({ id: user.id, storeName: input.storeName, town: { name: 'Nashik' } });
      // A duplicate e-mail (any case, any workspace) or phone is a conflict.
      expectGraphqlError(await gql(CREATE_USER, { input: newUser({ officialEmail: (input.officialEmail as string).toUpperCase() }) }, ws.token), 'CONFLICT', 'A user with this e-mail address already exists');
      expectGraphqlError(await gql(CREATE_USER, { input: newUser({ officialEmail: input.officialEmail, roleId: ws2.roles.Retailer }) }, ws2.token), 'CONFLICT', 'A user with this e-mail address already exists');
      expectGraphqlError(await gql(CREATE_USER, { input: newUser({ primaryContactNumber: '+919876543210' }) }, ws.token), 'CONFLICT', 'A user with this phone number already exists');
      expect(await userTotal()).toBe(before + 1);
    });

    it('refuses invalid users naming the field, and non-admins', async () => {
      const before = await userTotal();
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ officialEmail: 'not-an-email' }, 'officialEmail must be a valid e-mail address'],
        [{ firstName: '   ' }, 'firstName is required'],
        [{ primaryContactNumber: '12-34' }, 'primaryContactNumber must be a phone number of 10 to 15 digits, optionally starting with +'],
        [{ password: 'short' }, 'password must be at least 8 characters'],
        [{ userType: 'EMPLOYEE', roleId: ws.roles.Employee }, 'storeName is only for distributors and retailers'],
        [{ roleId: ws2.roles.Retailer }, 'roleId does not name an active role of this workspace'],
        [{ townId: 999999 }, 'townId does not name a town of this workspace'],
      ];
      for (const [over, message] of bad) expectGraphqlError(await gql(CREATE_USER, { input: newUser(over) }, ws.token), 'BAD_USER_INPUT', message);
      expectGraphqlError(await gql(CREATE_USER, { input: newUser({ userType: 'OWNER' }) }, ws.token), 'BAD_USER_INPUT', /^Variable "\$input" got invalid value "OWNER"/);
      expectGraphqlError(await gql(CREATE_USER, { input: newUser() }, employeeToken), 'FORBIDDEN');
      expectGraphqlError(await gql(CREATE_USER, { input: newUser() }, cat.distributorToken), 'FORBIDDEN');
      expectGraphqlError(await gql(CREATE_USER, { input: newUser() }), 'UNAUTHENTICATED');
      expect(await userTotal()).toBe(before);
    });

    it('lists users for staff with filters and pageInfo; customers are refused', async () => {
      const all = expectGraphqlData(await gql(USERS, { limit: 2 }, employeeToken)).users;
      expect(all.nodes).toHaveLength(2);
      const total = all.pageInfo.total;
      expect(all.pageInfo).toEqual({ total, page: 1, limit: 2, totalPages: Math.ceil(total / 2) });
      const distributors = expectGraphqlData(await gql(USERS, { userType: 'DISTRIBUTOR' }, ws.token)).users;
      expect(distributors.nodes).toEqual([{ id: cat.distributorId, firstName: expect.any(String), userType: 'DISTRIBUTOR', role: { name: 'Distributor' } }]);
      expect(expectGraphqlData(await gql(USERS, { search: 'admin' }, ws.token)).users.nodes.map((u: any) => u.id)).toEqual([ws.adminId]);
      expect(expectGraphqlData(await gql(USERS, { status: 'INACTIVE' }, ws.token)).users.pageInfo.total).toBe(0);
      expect(expectGraphqlData(await gql(USERS, {}, ws2.token)).users.nodes.map((u: any) => u.id)).not.toContain(ws.adminId);
      expectGraphqlError(await gql(USERS, { limit: 101 }, ws.token), 'BAD_USER_INPUT', 'limit must be an integer from 1 to 100');
      expectGraphqlError(await gql(USERS, {}, cat.distributorToken), 'FORBIDDEN');
    });

    it('reads one user: staff anyone, customers themselves, nobody another workspace’s', async () => {
      const USER = `query($id: Int!) { user(id: $id) { id userType role { name } } }`;
      expect(expectGraphqlData(await gql(USER, { id: cat.retailerId }, ws.token)).user).toEqual({ id: cat.retailerId, userType: 'RETAILER', role: { name: 'Retailer' } });
      expect(expectGraphqlData(await gql(USER, { id: cat.distributorId }, cat.distributorToken)).user.id).toBe(cat.distributorId);
      // To a customer every other user is simply not found.
      expectGraphqlError(await gql(USER, { id: cat.retailerId }, cat.distributorToken), 'NOT_FOUND', `User ${cat.retailerId} not found`);
      expectGraphqlError(await gql(USER, { id: 999999 }, ws.token), 'NOT_FOUND', 'User 999999 not found');
      expectGraphqlError(await gql(USER, { id: ws.adminId }, ws2.token), 'NOT_FOUND', `User ${ws.adminId} not found`);
      expectGraphqlError(await gql(USER, { id: cat.distributorId }, ws2.token), 'NOT_FOUND', `User ${cat.distributorId} not found`);
    });
  });

  describe('products', () => {
    const productInput = (over: Record<string, unknown> = {}) => {
      const n = unique();
      return { productName: `Butter ${n}`, productClassId: cat.productClassId, productHsn: '0405', productColorCode: '#ffcc00', productDescription: 'Salted', variants: [{ variantName: '100 g', itemSkuCode: `BT-${n}`, mrp: 60, sp: 57.5, variantSize: '100g', containerQuantity: 24 }], ...over };
    };

    it('creates a product with variants as admin and reads it back', async () => {
      const input = productInput();
      const { createProduct: p } = expectGraphqlData(await gql(CREATE_PRODUCT, { input }, ws.token));
      expect(p).toEqual({
        id: expect.any(Number), name: input.productName, hsn: '0405', colorCode: '#FFCC00', description: 'Salted', image: null, status: 'ACTIVE',
        productClass: { id: cat.productClassId, name: expect.stringMatching(/^Milk /) },
        variants: [{ variantName: '100 g', itemSkuCode: input.variants[0].itemSkuCode, mrp: 60, sp: 57.5, variantSize: '100g', variantQuantity: 1, containerQuantity: 24, status: 'ACTIVE', product: { id: p.id } }],
      });
      const read = expectGraphqlData(await gql(`query($id: Int!) { product(id: $id) { id name variants { sp } productClass { id } } }`, { id: p.id }, cat.distributorToken)).product;
      expect(read).toEqual({ id: p.id, name: input.productName, variants: [{ sp: 57.5 }], productClass: { id: cat.productClassId } });
      const list = expectGraphqlData(await gql(`{ products(limit: 1) { nodes { id } pageInfo { total page limit totalPages } } }`, {}, ws.token)).products;
      expect(list).toEqual({ nodes: [{ id: p.id }], pageInfo: { total: 2, page: 1, limit: 1, totalPages: 2 } });
      const found = expectGraphqlData(await gql(`query($s: String) { products(search: $s) { nodes { id } } }`, { s: input.productName.toUpperCase() }, ws.token)).products;
      expect(found.nodes).toEqual([{ id: p.id }]);
      expect(expectGraphqlData(await gql(`{ products(status: INACTIVE) { pageInfo { total } } }`, {}, ws.token)).products.pageInfo.total).toBe(0);
      // SKU codes are unique per workspace: the other workspace may reuse this one.
      const reuse = productInput({ productClassId: cat2.productClassId, variants: input.variants });
      expect(expectGraphqlData(await gql(CREATE_PRODUCT, { input: reuse }, ws2.token)).createProduct.variants[0].itemSkuCode).toBe(input.variants[0].itemSkuCode);
      expectGraphqlError(await gql(CREATE_PRODUCT, { input: productInput({ variants: input.variants }) }, ws.token), 'CONFLICT', `SKU code ${input.variants[0].itemSkuCode} is already used in this workspace`);
    });

    it('refuses invalid products naming the field, non-admins, and other workspaces’ products', async () => {
      const count = async () => expectGraphqlData(await gql('{ products { pageInfo { total } } }', {}, ws.token)).products.pageInfo.total;
      const before = await count();
      const v = (over: Record<string, unknown>) => ({ variantName: '1 kg', itemSkuCode: `X-${unique()}`, mrp: 10, sp: 9, ...over });
      const bad: Array<[Record<string, unknown>, string | RegExp]> = [
        [{ productName: ' ' }, 'productName is required'],
        [{ productClassId: 999999 }, 'productClassId does not name a product class of this workspace'],
        [{ productClassId: cat2.productClassId }, 'productClassId does not name a product class of this workspace'],
        [{ productHsn: '04a5' }, 'productHsn must be 4 to 8 digits'],
        [{ productColorCode: 'yellow' }, 'productColorCode must be a colour in the form #RRGGBB'],
        [{ productImage: 'javascript:alert(1)' }, 'productImage must be an http or https URL'],
        [{ variants: [v({ sp: 11 })] }, 'variants[0].sp must not exceed mrp'],
        [{ variants: [v({ mrp: 10.005 })] }, 'variants[0].mrp must have at most two decimal places'],
        [{ variants: [v({ itemSkuCode: 'DUP' }), v({ itemSkuCode: 'DUP' })] }, /^variants\[1\]\.itemSkuCode repeats /],
        [{ variants: [v({ variantQuantity: 0 })] }, 'variants[0].variantQuantity must be an integer from 1 to 1000000'],
      ];
      for (const [over, message] of bad) expectGraphqlError(await gql(CREATE_PRODUCT, { input: productInput(over) }, ws.token), 'BAD_USER_INPUT', message);
      expectGraphqlError(await gql(CREATE_PRODUCT, { input: productInput() }, employeeToken), 'FORBIDDEN');
      expectGraphqlError(await gql(CREATE_PRODUCT, { input: productInput() }, cat.distributorToken), 'FORBIDDEN');
      expect(await count()).toBe(before);
      expectGraphqlError(await gql(`query($id: Int!) { product(id: $id) { id } }`, { id: cat2.productId }, ws.token), 'NOT_FOUND', `Product ${cat2.productId} not found`);
      expectGraphqlError(await gql(`query($id: Int!) { product(id: $id) { id } }`, { id: cat.productId }, ws2.token), 'NOT_FOUND', `Product ${cat.productId} not found`);
    });
  });

  describe('masters', () => {
    // [list query, singular, extra fields to select, create input, update input, expected after update]
    const KINDS = [
      { list: 'productClasses', one: 'ProductClass', label: 'Product class', fields: 'unit', create: { unit: 'kg' }, created: { unit: 'kg' } },
      { list: 'roles', one: 'Role', label: 'Role', fields: 'description', create: { description: 'Field sales' }, created: { description: 'Field sales' } },
      { list: 'towns', one: 'Town', label: 'Town', fields: '', create: {}, created: {} },
      { list: 'routes', one: 'Route', label: 'Route', fields: 'town { id }', create: {}, created: {} },
      { list: 'productionUnits', one: 'ProductionUnit', label: 'Production unit', fields: '', create: {}, created: {} },
    ];
    let townId: number;
    beforeAll(async () => {
      townId = expectGraphqlData(await gql('mutation { createTown(input: { name: "Route Town" }) { id } }', {}, ws.token)).createTown.id;
      KINDS[3].create = { townId } as never;
      KINDS[3].created = { town: { id: townId } } as never;
    });

    for (const kind of KINDS) {
      it(`lists, creates and updates ${kind.list}`, async () => {
        const select = `id name status ${kind.fields}`;
        const create = `mutation($input: ${kind.one}Input!) { create${kind.one}(input: $input) { ${select} } }`;
        const update = `mutation($id: Int!, $input: ${kind.one}Input!) { update${kind.one}(id: $id, input: $input) { ${select} } }`;
        const list = `query($search: String, $status: ActiveStatus) { ${kind.list}(search: $search, status: $status) { nodes { ${select} } pageInfo { total } } }`;
        const name = `Zeta ${kind.one} ${unique()}`;
        const made = expectGraphqlData(await gql(create, { input: { name, ...kind.create } }, ws.token))[`create${kind.one}`];
        expect(made).toEqual({ id: expect.any(Number), name, status: 'ACTIVE', ...kind.created });
        const found = expectGraphqlData(await gql(list, { search: name.toLowerCase() }, cat.distributorToken))[kind.list];
        expect(found).toEqual({ nodes: [made], pageInfo: { total: 1 } });
        expectGraphqlError(await gql(create, { input: { name, ...kind.create } }, ws.token), 'CONFLICT', `${kind.label} "${name}" already exists`);
        expectGraphqlError(await gql(create, { input: { name: '  ', ...kind.create } }, ws.token), 'BAD_USER_INPUT', 'name is required');
        expectGraphqlError(await gql(create, { input: { name: `${name} 2`, ...kind.create } }, employeeToken), 'FORBIDDEN');

        const renamed = expectGraphqlData(await gql(update, { id: made.id, input: { name: `${name} B`, status: 'INACTIVE' } }, ws.token))[`update${kind.one}`];
        expect(renamed).toEqual({ ...made, name: `${name} B`, status: 'INACTIVE' });
        expect(expectGraphqlData(await gql(list, { search: name, status: 'INACTIVE' }, ws.token))[kind.list].nodes).toEqual([renamed]);
        expect(expectGraphqlData(await gql(list, { search: name, status: 'ACTIVE' }, ws.token))[kind.list].pageInfo.total).toBe(0);
        expectGraphqlError(await gql(update, { id: made.id, input: { name } }, employeeToken), 'FORBIDDEN');
        expectGraphqlError(await gql(update, { id: 999999, input: { name } }, ws.token), 'NOT_FOUND', `${kind.label} 999999 not found`);
        // Another workspace can neither change nor see it.
        expectGraphqlError(await gql(update, { id: made.id, input: { name: 'Hijacked' } }, ws2.token), 'NOT_FOUND', `${kind.label} ${made.id} not found`);
        expect(expectGraphqlData(await gql(list, { search: name }, ws2.token))[kind.list].pageInfo.total).toBe(0);
        expect(expectGraphqlData(await gql(list, { search: name }, ws.token))[kind.list].nodes).toEqual([renamed]);
      });
    }

    it('checks the route’s town', async () => {
      const CREATE_ROUTE = `mutation($input: RouteInput!) { createRoute(input: $input) { id name town { id } } }`;
      expectGraphqlError(await gql(CREATE_ROUTE, { input: { name: 'No Town' } }, ws.token), 'BAD_USER_INPUT', 'townId is required');
      expectGraphqlError(await gql(CREATE_ROUTE, { input: { name: 'Far', townId } }, ws2.token), 'BAD_USER_INPUT', 'townId does not name a town of this workspace');
      const other = expectGraphqlData(await gql('mutation { createTown(input: { name: "Other Town" }) { id } }', {}, ws.token)).createTown.id;
      expectGraphqlData(await gql(CREATE_ROUTE, { input: { name: 'Ring Road', townId } }, ws.token));
      expect(expectGraphqlData(await gql(CREATE_ROUTE, { input: { name: 'Ring Road', townId: other } }, ws.token)).createRoute.town).toEqual({ id: other });
      expectGraphqlError(await gql(CREATE_ROUTE, { input: { name: 'Ring Road', townId } }, ws.token), 'CONFLICT', 'Route "Ring Road" already exists');
    });
  });

  describe('signup and logout', () => {
    const signupInput = () => {
      const n = unique();
      return { firstName: 'Founder', lastName: `No${n}`, officialEmail: `founder${n}@example.test`, primaryContactNumber: uniquePhone(), password: 'password123', organizationName: `Graph Foods ${n}` };
    };
    /** A GraphQL or REST signup from a given client address. */
    const fromAddress = (remoteAddress: string, input: Record<string, unknown>, rest = false) =>
      rest
        ? t.request({ method: 'POST', url: '/api/v1/signup/register', remoteAddress, payload: { first_name: input.firstName, last_name: input.lastName, official_email: input.officialEmail, primary_contact_number: input.primaryContactNumber, password: input.password, organization_name: input.organizationName } })
        : t.request({ method: 'POST', url: '/graphql', remoteAddress, payload: { query: SIGNUP, variables: { input } } });

    it('signs up a workspace whose token works for me, and refuses bad or duplicate input', async () => {
      const input = signupInput();
      const res = await fromAddress('10.1.0.1', input);
      const { signup } = expectGraphqlData({ ...res.json(), statusCode: res.statusCode });
      expect(signup.user).toEqual({ id: expect.any(Number), firstName: 'Founder', userType: 'ADMIN', role: { name: 'Admin' } });
      expect(signup.workspace).toEqual({ id: expect.any(Number), slug: expect.stringMatching(/^graph-foods-\d+$/), displayName: input.organizationName, plan: 'FREE', status: 'TRIAL' });
      const me = expectGraphqlData(await gql('{ me { id organizationId } workspace { id } }', {}, signup.token));
      expect(me).toEqual({ me: { id: signup.user.id, organizationId: signup.workspace.id }, workspace: { id: signup.workspace.id } });
      const dup = await fromAddress('10.1.0.1', { ...signupInput(), officialEmail: input.officialEmail.toUpperCase() });
      expectGraphqlError({ ...dup.json(), statusCode: dup.statusCode }, 'CONFLICT', 'A user with this e-mail address already exists');
      const bad = await fromAddress('10.1.0.1', { ...signupInput(), officialEmail: 'founder-at-example' });
      expectGraphqlError({ ...bad.json(), statusCode: bad.statusCode }, 'BAD_USER_INPUT', 'officialEmail must be a valid e-mail address');
    });

    it('shares the REST budget of 5 signups per hour per address', async () => {
      const address = '10.2.0.2';
      for (const rest of [true, false, true, false, false]) {
        const res = await fromAddress(address, signupInput(), rest);
        expect(res.statusCode, res.body).toBe(rest ? 201 : 200);
      }
      const organizations = async () =>
        (await t.orm.em.fork().getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from organization'))[0].n;
      const before = await organizations();
      const refused = await fromAddress(address, signupInput());
      expectGraphqlError({ ...refused.json(), statusCode: refused.statusCode }, 'RATE_LIMITED', 'Too many requests, please try again later');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await organizations()).toBe(before);
      expect((await fromAddress(address, signupInput(), true)).statusCode).toBe(429);
      // Another address still has its own budget.
      expect((await fromAddress('10.2.0.3', signupInput())).statusCode).toBe(200);
    });

    it('logs out: the token stops working at once, other sessions do not', async () => {
      const user = await createUser(t, ws, UserType.EMPLOYEE);
      const token = await signIn(t, ws, user.id);
      expect(expectGraphqlData(await gql('{ me { id } }', {}, token)).me.id).toBe(user.id);
      expect(expectGraphqlData(await gql('mutation { logout }', {}, token))).toEqual({ logout: true });
      const after = await gql('{ me { id } }', {}, token);
      expect(after.statusCode).toBe(401);
      expectGraphqlError(after, 'UNAUTHENTICATED');
      expectGraphqlError(await gql('mutation { logout }', {}, token), 'UNAUTHENTICATED');
      expect(expectGraphqlData(await gql('{ me { id } }', {}, ws.token)).me.id).toBe(ws.adminId);
      expectGraphqlError(await gql('mutation { logout }'), 'UNAUTHENTICATED');
    });
  });
});
