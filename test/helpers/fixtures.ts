import { expect } from 'vitest';
import { scopeToOrganization } from '../../src/db/tenant-filter';
import { User, UserType } from '../../src/domains/users/user.entity';
import type { TestApp } from './test-app';

let sequence = 0;
/** A number unique within the test file, for e-mails and phone numbers. */
export function unique(): number {
  sequence += 1;
  return sequence;
}

/** A phone number no other fixture uses. */
export function uniquePhone(): string {
  return `+9190000${String(unique()).padStart(5, '0')}`;
}

/** A workspace with its admin signed in. */
export interface Workspace {
  organizationId: number;
  slug: string;
  adminId: number;
  token: string;
  /** Role ids by name: Admin, Employee, Distributor, Retailer. */
  roles: Record<string, number>;
}

/** Creates a workspace through the signup service (no rate limit in the way). */
export async function createWorkspace(t: TestApp, name = `Workspace ${unique()}`): Promise<Workspace> {
  const n = unique();
  const { token, user, organization } = await t.app.services.signup.register(t.orm.em.fork(), {
    firstName: 'Admin',
    lastName: `Number${n}`,
    officialEmail: `admin${n}@example.test`,
    primaryContactNumber: uniquePhone(),
    password: 'password123',
    organizationName: name,
  });
  const roles = await t.orm.em.fork().getConnection().execute<{ id: number; name: string }[]>(
    'select id, name from role where organization_id = ?',
    [organization.id],
  );
  return {
    organizationId: organization.id,
    slug: organization.slug,
    adminId: user.id,
    token,
    roles: Object.fromEntries(roles.map((r) => [r.name, r.id])),
  };
}

const ROLE_FOR_TYPE: Record<UserType, string> = {
  [UserType.ADMIN]: 'Admin',
  [UserType.EMPLOYEE]: 'Employee',
  [UserType.DISTRIBUTOR]: 'Distributor',
  [UserType.RETAILER]: 'Retailer',
};

/** Creates a user of the given type over REST (as the admin) and signs them in. */
export async function createUser(
  t: TestApp,
  ws: Workspace,
  userType: UserType,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; token: string; body: Record<string, unknown> }> {
  const n = unique();
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/users',
    token: ws.token,
    payload: {
      first_name: `User${n}`,
      last_name: ROLE_FOR_TYPE[userType],
      official_email: `user${n}@example.test`,
      primary_contact_number: uniquePhone(),
      password: 'password123',
      role_id: ws.roles[ROLE_FOR_TYPE[userType]],
      user_type: userType,
      ...(userType >= UserType.DISTRIBUTOR ? { store_name: `Store ${n}` } : {}),
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await t.settled(); // the invite e-mail goes out after the answer
  const body = res.json().data;
  return { id: body.id, token: await signIn(t, ws, body.id), body };
}

/** Starts a session for a user of the workspace and returns its token. */
export async function signIn(t: TestApp, ws: Workspace, userId: number): Promise<string> {
  const em = t.orm.em.fork();
  scopeToOrganization(em, ws.organizationId);
  const user = await em.findOneOrFail(User, { id: userId });
  return t.app.services.sessions.start(em, user);
}

/** A small catalogue and customers to order with. */
export interface Catalog {
  productClassId: number;
  productId: number;
  variantIds: number[];
  distributorId: number;
  distributorToken: string;
  retailerId: number;
}

/** Creates a product class, a product with two variants (sp 28.50 and 55.00), a distributor and a retailer. */
export async function seedCatalog(t: TestApp, ws: Workspace): Promise<Catalog> {
  const n = unique();
  const cls = await t.request({
    method: 'POST',
    url: '/api/v1/masters/product-classes',
    token: ws.token,
    payload: { product_class: `Milk ${n}`, unit: 'litre' },
  });
  expect(cls.statusCode, cls.body).toBe(201);
  const product = await createProduct(t, ws, {
    product_name: `Toned Milk ${n}`,
    product_class_id: cls.json().data.id,
    product_hsn: '0401',
    variants: [
      { variant_name: '500 ml', item_sku_code: `TM-500-${n}`, mrp: 30, sp: 28.5 },
      { variant_name: '1 l', item_sku_code: `TM-1000-${n}`, mrp: 58, sp: 55 },
    ],
  });
  const distributor = await createUser(t, ws, UserType.DISTRIBUTOR);
  const retailer = await createUser(t, ws, UserType.RETAILER);
  return {
    productClassId: cls.json().data.id,
    productId: product.id,
    variantIds: product.variantIds,
    distributorId: distributor.id,
    distributorToken: distributor.token,
    retailerId: retailer.id,
  };
}

/** Creates a product over REST as the workspace's admin; its id and its variants' ids, in the order given. */
export async function createProduct(t: TestApp, ws: Workspace, payload: Record<string, unknown>): Promise<{ id: number; variantIds: number[] }> {
  const res = await t.request({ method: 'POST', url: '/api/v1/products', token: ws.token, payload });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json().data;
  return { id: body.id, variantIds: body.ProductVariants.map((v: { id: number }) => v.id) };
}

/** Places an order over REST and returns its body. */
export async function placeOrder(
  t: TestApp,
  token: string,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: number }> {
  const res = await t.request({ method: 'POST', url: '/api/v1/orders', token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** An API key issued over REST by the workspace's admin. */
export interface IssuedKey {
  id: number;
  key: string;
  keyPrefix: string;
  scopes: string;
}

/** Issues an API key as the workspace's admin (POST /developer/api-keys) and waits for the notice e-mails. */
export async function createApiKey(
  t: TestApp,
  ws: Workspace,
  body: { name?: string; scopes?: string; expires_in_days?: number } = {},
): Promise<IssuedKey> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/developer/api-keys',
    token: ws.token,
    payload: { name: `Key ${unique()}`, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  await t.settled();
  const data = res.json().data;
  return { id: data.id, key: data.key, keyPrefix: data.key_prefix, scopes: data.scopes };
}
