import type { EntityClass } from '@mikro-orm/core';
import fc from 'fast-check';
import { isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../src/db/entities';
import { TenantEntity } from '../../src/db/tenant.entity';
import { catalogOf, DOMAINS } from '../../src/domains';
import { groupOfPath } from '../../src/domains/api-keys/route-groups';
import { ROUTE_GROUP_EXTENSION } from '../../src/graphql/route-group';
import { graphqlSchema } from '../../src/graphql/schema';
import { UserType } from '../../src/domains/users/user.entity';
import { restOperations, type RestOperation } from '../fuzz/rest-requests';
import { validShaped } from '../fuzz/json-schema-values';
import { createApiKey, createUser, createWorkspace, placeOrder, seedCatalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * Every route and every tenant-owned table, found from the app itself (its OpenAPI document and
 * the domains' entities), so a new domain's routes are held to the same rules without a line here:
 * each route's group is one a domain declares, API keys meet their scopes on it, and no `{id}`
 * route reaches another workspace's row.
 */
describe('every route', () => {
  let t: TestApp;
  let operations: RestOperation[];
  const catalog = catalogOf(DOMAINS);

  beforeAll(async () => {
    // Webhook targets resolve to a public address (nothing is delivered: no worker runs).
    t = await buildTestApp({}, { resolveHost: async () => [{ address: '93.184.216.34', family: 4 }] });
    operations = restOperations(t.app.swagger() as never);
  });
  afterAll(() => t.close());

  it('finds the routes of every domain', () => {
    const groups = new Set(operations.map((op) => groupOfPath(op.url)));
    for (const domain of DOMAINS) {
      for (const group of Object.keys(domain.routeGroups ?? {})) expect(groups, `${domain.name}'s ${group}`).toContain(group);
    }
  });

  it('belongs to a route group a domain declares, as every GraphQL root field does', async () => {
    const declared = [...catalog.scopedGroups, ...catalog.refusedGroups];
    for (const op of operations) expect(declared, `${op.method} ${op.url}`).toContain(groupOfPath(op.url));
    const schema = await graphqlSchema();
    for (const type of [schema.getQueryType(), schema.getMutationType()]) {
      if (!isObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const group = field.extensions[ROUTE_GROUP_EXTENSION];
        if (group !== undefined) expect(declared, `${type.name}.${field.name}`).toContain(group);
      }
    }
  });

  describe('with an API key', () => {
    let ws: Workspace;
    let keys: { readOnly: string; everything: string };
    beforeAll(async () => {
      ws = await createWorkspace(t);
      keys = { readOnly: (await createApiKey(t, ws, { scopes: 'read' })).key, everything: (await createApiKey(t, ws, { scopes: '*' })).key };
    });
    /**
     * A key confined to another group than `group`'s; a fresh one every 4 requests, as refused
     * requests spend the caller's budget too (the exports group's is 5 a minute). The one it
     * replaces is revoked: a workspace holds at most 50 active keys.
     */
    const confined = new Map<string, { id: number; key: string; uses: number }>();
    async function keyConfinedElsewhere(group: string): Promise<string> {
      let held = confined.get(group);
      if (!held || held.uses === 4) {
        if (held) await t.request({ method: 'DELETE', url: `/api/v1/developer/api-keys/${held.id}`, token: ws.token });
        const other = catalog.scopedGroups.find((g) => g !== group)!;
        const issued = await createApiKey(t, ws, { scopes: `read,write,${other}` });
        held = { id: issued.id, key: issued.key, uses: 0 };
        confined.set(group, held);
      }
      held.uses += 1;
      return held.key;
    }

    const urlOf = (op: RestOperation) => op.url.replace(/\{[^}]+\}/g, '1');

    it('is refused (403) where keys are refused, outside the key’s groups, and for writes without `write`', async () => {
      for (const op of operations) {
        const group = groupOfPath(op.url)!;
        const send = (apiKey: string) => t.request({ method: op.method as 'GET', url: urlOf(op), apiKey });
        const what = `${op.method} ${op.url}`;
        if (catalog.refusedGroups.includes(group)) {
          expect((await send(keys.everything)).statusCode, `${what} with any key`).toBe(403);
          continue;
        }
        expect((await send(await keyConfinedElsewhere(group))).statusCode, `${what} with a key confined elsewhere`).toBe(403);
        if (op.method !== 'GET') expect((await send(keys.readOnly)).statusCode, `${what} with a read-only key`).toBe(403);
      }
    });
  });

  describe("another workspace's rows", () => {
    let A: Workspace;
    let B: Workspace;
    const idsOfA: number[] = [];
    /** A customer of B: the customer portal's routes take a customer's session (staff get 403 there). */
    let customerTokenOfB = '';
    let snapshotOfA: () => Promise<string>;

    beforeAll(async () => {
      [A, B] = [await createWorkspace(t), await createWorkspace(t)];
      for (const ws of [A, B]) {
        const catalogOfWs = await seedCatalog(t, ws);
        const customer = await createUser(t, ws, UserType.RETAILER);
        if (ws === B) customerTokenOfB = customer.token;
        await placeOrder(t, ws.token, { user_id: customer.id, items: [{ product_variant_id: catalogOfWs.variantIds[0], quantity: 1 }] });
        const hook = await t.request({ method: 'POST', url: '/api/v1/developer/webhooks', token: ws.token, payload: { name: 'ERP', url: 'https://erp.example.test/hooks', events: ['order.created'] } });
        expect(hook.statusCode, hook.body).toBe(201);
        await createApiKey(t, ws);
      }
      const tables = ENTITIES.filter((e) => e.prototype instanceof TenantEntity)
        .map((e) => t.orm.getMetadata().find((e as EntityClass<object>).name))
        .filter((meta) => meta !== undefined && !meta.abstract && meta.primaryKeys.includes('id'))
        .map((meta) => meta!)
        .map((meta) => meta.tableName);
      const conn = t.orm.em.fork().getConnection();
      // Ids are per table: keep those of A's rows that are no row of B's in any table.
      const idsOf = async (ws: Workspace) => {
        const ids: number[] = [];
        for (const table of new Set(tables)) {
          const rows = await conn.execute<Array<{ id: number }>>(`select id from "${table}" where organization_id = ?`, [ws.organizationId]);
          ids.push(...rows.map((r) => Number(r.id)));
        }
        return new Set(ids);
      };
      const ofB = await idsOf(B);
      idsOfA.push(...[...(await idsOf(A))].filter((id) => !ofB.has(id)));
      snapshotOfA = async () =>
        JSON.stringify(
          await Promise.all([...new Set(tables)].map((table) => conn.execute(`select * from "${table}" where organization_id = ? order by id`, [A.organizationId]))),
        );
    });

    it('are "not found" on every {id} route, and nothing of them changes', async () => {
      const before = await snapshotOfA();
      const idRoutes = operations.filter((op) => op.pathParams.some((p) => p.name === 'id') && !op.url.includes('/exports/files/'));
      expect(idRoutes.length).toBeGreaterThan(10);
      for (const op of idRoutes) {
        const [body] = op.body ? fc.sample(validShaped(op.body, { existingIds: [] }), { numRuns: 1, seed: 21 }) : [undefined];
        const statuses = new Set<number>();
        for (const id of idsOfA) {
          // Every path parameter takes the id (`/products/{id}/variants/{variantId}`: one of A's ids in each).
          const res = await t.request({ method: op.method as 'GET', url: op.url.replace(/\{\w+\}/g, String(id)), token: op.url.includes('/portal/') ? customerTokenOfB : B.token, ...(body === undefined ? {} : { payload: body as object }) });
          expect(res.statusCode, `${op.method} ${op.url} with A's ${id}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          statuses.add(res.statusCode);
        }
        expect([...statuses], `${op.method} ${op.url}`).toContain(404);
      }
      expect(await snapshotOfA()).toBe(before);
    });
  });
});
