import { UserType } from '../../src/domains/users/user.entity';
import { isPublicAddress, type HostResolver } from '../../src/domains/webhooks/target-guard';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, signIn, type Workspace } from '../helpers/fixtures';
import type { TestApp } from '../helpers/test-app';

/** The only webhook host the fuzz app accepts: it resolves to loopback, where nothing listens on 443. */
export const FUZZ_HOOK_HOST = 'hooks.fuzz.test';

/**
 * Host names resolve to loopback for FUZZ_HOOK_HOST (exempt from the private-address rule) and to
 * nothing otherwise, so no generated URL makes the service reach past this machine.
 */
export const fuzzResolver: HostResolver = async (host) => (host.toLowerCase() === FUZZ_HOOK_HOST ? [{ address: '127.0.0.1', family: 4 }] : []);

/** Third-party calls (bot-check, SMS gateway, logos) never leave the machine: each answers 404 here. */
export const noOutboundFetch: typeof fetch = async () => new Response('not reachable from the fuzz test', { status: 404 });

/**
 * Rewrites any URL with a public IP literal for a host (the one kind of target the resolver does
 * not see) to FUZZ_HOOK_HOST, so a generated webhook is never registered, tested or delivered to
 * an address outside this machine.
 */
export function withoutPublicTargets(text: string): string {
  return text.replace(/https?:\/\/\[?([0-9A-Fa-f:.]+)\]?/g, (whole, host: string) => (isPublicAddress(host) ? whole.replace(host, FUZZ_HOOK_HOST) : whole));
}

/** The signed-in admin and the API key the fuzz sends its requests with. */
export interface FuzzCredentials {
  ws: Workspace;
  /** Session token of the workspace's admin (a browser User-Agent goes with it). */
  token: string;
  /** An API key with scopes `*` (read and write, every group open to keys). */
  apiKey: string;
  /** The second workspace, whose rows' ids are offered too (they must answer 404, never 5xx). */
  otherOrganizationId: number;
}

/**
 * A workspace with something of everything (catalogue, customers, an order, a payment, masters,
 * a webhook), a second workspace whose rows must stay out of reach, and the credentials.
 */
export async function fuzzWorkspace(t: TestApp): Promise<FuzzCredentials> {
  const ws = await createWorkspace(t, 'Fuzz workspace');
  const catalog = await seedCatalog(t, ws);
  await createUser(t, ws, UserType.EMPLOYEE);
  const order = await placeOrder(t, ws.token, { user_id: catalog.retailerId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 2 }] });
  const create = async (url: string, payload: Record<string, unknown>): Promise<number | undefined> => {
    const res = await t.request({ method: 'POST', url: `/api/v1${url}`, token: ws.token, payload });
    // Best effort: a fixture the interface refuses only narrows the ids on offer, and says so.
    if (res.statusCode >= 300) console.warn(`fuzz fixture POST ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    return res.json().data?.id;
  };
  await create('/payments', { order_id: order.id, amount: 10, mode_of_payment: 'cash' });
  // On account: nothing is delivered, so it stays unallocated (an allocate finds nothing owed: 409).
  await create('/payments', { customer_id: catalog.retailerId, amount: 20, mode_of_payment: 'upi' });
  const townId = await create('/masters/towns', { town_name: 'Fuzz town' });
  const routeId = await create('/masters/routes', { route_name: 'Fuzz route', town_id: townId });
  await create('/masters/production-units', { production_unit_name: 'Fuzz unit' });
  await create('/masters/outlets', { outlet_name: 'Fuzz outlet', town_id: townId, route_id: routeId, phone: '+919000099999' });
  await create('/developer/webhooks', { name: 'Fuzz hook', url: `https://${FUZZ_HOOK_HOST}/hook` });
  const other = await createWorkspace(t, 'Other fuzz workspace');
  await seedCatalog(t, other);
  const key = await createApiKey(t, ws, { scopes: '*' });
  return { ws, token: ws.token, apiKey: key.key, otherOrganizationId: other.organizationId };
}

/**
 * Ids of existing rows in every tenant-owned table (both workspaces), found in the catalogue so
 * tables added later take part without edits: path parameters and id fields draw from them.
 */
export async function existingIds(t: TestApp, organizationIds: number[]): Promise<number[]> {
  const connection = t.orm.em.fork().getConnection();
  const tables = await connection.execute<{ table_name: string }[]>(
    `select c.table_name from information_schema.columns c
       join information_schema.columns o on o.table_schema = c.table_schema and o.table_name = c.table_name and o.column_name = 'organization_id'
      where c.table_schema = current_schema() and c.column_name = 'id' and c.data_type in ('integer', 'bigint')
      order by c.table_name`,
  );
  const ids = new Set<number>(organizationIds);
  for (const { table_name } of tables) {
    const rows = await connection.execute<{ id: number | string }[]>(
      `select id from "${table_name}" where organization_id in (${organizationIds.map(() => '?').join(', ')}) order by id limit 4`,
      organizationIds,
    );
    for (const row of rows) ids.add(Number(row.id));
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Puts the fuzz's credentials back when a generated request ended them (logout, a password
 * change, the key revoked): checked through the services after every write that succeeded, so
 * such operations are fuzzed like the rest instead of being left out.
 */
export async function restoreCredentials(t: TestApp, creds: FuzzCredentials): Promise<void> {
  try {
    await t.app.services.sessions.authenticate(t.orm.em.fork(), creds.token);
  } catch {
    creds.token = await signIn(t, creds.ws, creds.ws.adminId);
    creds.ws.token = creds.token;
  }
  try {
    await t.app.services.apiKeyAuthenticator.authenticate(t.orm.em.fork(), creds.apiKey);
  } catch {
    creds.apiKey = (await createApiKey(t, creds.ws, { scopes: '*' })).key;
  }
}
