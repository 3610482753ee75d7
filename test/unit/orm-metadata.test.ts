import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../src/db/orm';
import { TENANT_FILTER } from '../../src/db/tenant-filter';

/** Entities that are not owned by one workspace, and why. */
const NOT_TENANT_OWNED = new Set([
  'Organization', // the tenant itself
  'SpentNonce', // redeemed bot-check and WebAuthn challenges, issued before anyone signs in
]);

describe('ORM metadata', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await openOrm('postgres://metadata@127.0.0.1:1/metadata', { connect: false });
  });
  afterAll(() => orm.close());

  const entities = () =>
    Object.values(orm.getMetadata().getAll()).filter((meta) => !meta.abstract && !meta.embeddable && !meta.virtual);

  it('every tenant-owned entity has an organization column and the default tenant filter', () => {
    const checked: string[] = [];
    for (const meta of entities()) {
      if (NOT_TENANT_OWNED.has(meta.className)) continue;
      checked.push(meta.className);
      expect(meta.properties.organizationId?.fieldNames, meta.className).toEqual(['organization_id']);
      expect(meta.filters[TENANT_FILTER], `${meta.className} lacks the tenant filter`).toBeDefined();
      expect(meta.filters[TENANT_FILTER].default, meta.className).toBe(true);
    }
    expect(checked.length).toBeGreaterThanOrEqual(13);
  });

  it('every index and unique constraint of a tenant-owned table starts with organization_id', () => {
    for (const meta of entities()) {
      if (NOT_TENANT_OWNED.has(meta.className)) continue;
      for (const index of [...meta.indexes, ...meta.uniques]) {
        if (index.expression) continue; // global uniqueness of sign-in identifiers, documented in the README
        const first = [index.properties ?? []].flat()[0];
        expect(first, `${meta.className} index ${JSON.stringify(index.properties)}`).toBe('organizationId');
      }
      expect(meta.indexes.length + meta.uniques.length, `${meta.className} has no index`).toBeGreaterThan(0);
    }
  });

  it('the tenant filter fails closed when no organization is set', async () => {
    const filter = orm.getMetadata().find('Order')!.filters[TENANT_FILTER];
    const cond = filter.cond as (args: unknown) => unknown;
    expect(() => cond(undefined)).toThrow(/organization/);
    expect(() => cond({})).toThrow(/organization/);
    expect(cond({ organizationId: 7 })).toEqual({ organizationId: 7 });
  });
});
