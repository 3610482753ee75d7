import 'reflect-metadata';
import { buildSchema, Int } from 'type-graphql';
import { GraphQLEnumType, GraphQLInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { catalogOf, DOMAINS } from '../../src/domains';
import { defineDomain } from '../../src/domains/domain-module';
import { ExportCatalog } from '../../src/domains/exports/export-catalog';
import { exportFileName, ExportFormat } from '../../src/domains/exports/export-formats';
import { checkFilters } from '../../src/domains/exports/export-filters';
import { defineExport, type ExportSource } from '../../src/domains/exports/export-source';
import { exportResolvers } from '../../src/domains/exports/export.resolver';
import { sql } from '../../src/db/tenant-sql';
import { ValidationError } from '../../src/errors/app-error';

/** A kind as a new domain would declare it, with a filter of its own. */
const crateMoves = defineExport<{ depotId?: number }>({
  kind: 'crate-moves',
  description: 'one row per crate move',
  title: 'Crate moves',
  filters: { depotId: { graphqlType: () => Int, description: 'moves at this depot' } },
  orientation: 'portrait',
  columns: [{ key: 'id', header: 'ID', type: 'integer', width: 8 }],
  rows: (organizationId) => ({ select: 'm.id', from: sql`crate_move m where m.organization_id = ${organizationId}`, orderBy: 'm.id', count: sql`crate_move m` }),
  describe: (f) => (f.depotId === undefined ? [] : [`Depot: ${f.depotId}`]),
});
const crates = defineDomain({ name: 'crates', exports: [crateMoves] });

const scope = { em: undefined as never, organizationId: 1 };

describe('export kinds come from the domains', () => {
  it('the catalog lists every module’s kinds in the order of the domain list', () => {
    expect(catalogOf(DOMAINS).exportSources.map((s) => s.kind)).toEqual(['orders', 'sales', 'users', 'products', 'beat-productivity', 'ledger', 'secondary-sales']);
    expect(catalogOf([...DOMAINS, crates]).exportSources.map((s) => s.kind)).toEqual(['orders', 'sales', 'users', 'products', 'beat-productivity', 'ledger', 'secondary-sales', 'crate-moves']);
  });

  it("a new domain's kind reaches GraphQL's ExportKind and ExportFiltersInput with no other edit", async () => {
    const schema = await buildSchema({ resolvers: exportResolvers(catalogOf([...DOMAINS, crates])) as [Function], authChecker: () => true, validate: false });
    const kinds = schema.getType('ExportKind') as GraphQLEnumType;
    expect(kinds.getValues().map((v) => [v.name, v.value, v.description])).toEqual([
      ['ORDERS', 'orders', 'One row per order.'],
      ['SALES', 'sales', 'One row per order line.'],
      ['USERS', 'users', 'One row per user.'],
      ['PRODUCTS', 'products', 'One row per product variant, with its prices.'],
      ['BEAT_PRODUCTIVITY', 'beat-productivity', 'One row per employee with a beat plan or a visit on the day, scored.'],
      ['LEDGER', 'ledger', 'A customer’s statement of account: one row per ledger row, with the running balance.'],
      ['SECONDARY_SALES', 'secondary-sales', 'One row per secondary sale (a distributor’s invoice to a retailer).'],
      ['CRATE_MOVES', 'crate-moves', 'One row per crate move.'],
    ]);
    const filters = (schema.getType('ExportFiltersInput') as GraphQLInputObjectType).getFields();
    expect(filters.depotId.description).toBe('Crate-moves: moves at this depot.');
    expect(String(filters.depotId.type)).toBe('Int');
    // A filter two kinds share is one field, described for both.
    expect(filters.dateFrom.description).toBe('Orders and sales and secondary-sales: order date from, YYYY-MM-DD (inclusive).');
    expect(exportFileName(crateMoves.kind, ExportFormat.XLSX, '2026-11-26')).toBe('crate-moves-2026-11-26.xlsx');
  });

  it('refuses two domains declaring one kind, a kind that is not lower-case, and one filter name with two input types', () => {
    expect(() => new ExportCatalog([crateMoves, crateMoves])).toThrow('export kind crate-moves is declared twice');
    expect(() => new ExportCatalog([{ ...crateMoves, kind: 'Crates' }])).toThrow('must be lower-case');
    const clash: ExportSource = { ...crateMoves, kind: 'other', filters: { depotId: { graphqlType: () => String, description: 'x' } } };
    expect(() => new ExportCatalog([crateMoves, clash]).filters()).toThrow('export filter depotId has two input types (crate-moves, other)');
  });

  it('a kind no domain declares (a job of a kind since removed) is a 400 naming kind', () => {
    const catalog = new ExportCatalog(catalogOf(DOMAINS).exportSources);
    expect(() => catalog.sourceOf('crate-moves')).toThrow(ValidationError);
    expect(() => catalog.sourceOf('crate-moves')).toThrow('must be one of orders, sales, users');
  });

  it("a filter another kind takes is a 400 naming it and listing the kind's own; a date range must not end before it starts", async () => {
    const [, sales, users] = catalogOf(DOMAINS).exportSources;
    await expect(checkFilters(scope, users, { dateFrom: '2026-01-01' })).rejects.toMatchObject({ field: 'dateFrom', message: expect.stringContaining('does not apply to users exports (they take userType, userStatus)') });
    await expect(checkFilters(scope, sales, { dateFrom: '2026-02-01', dateTo: '2026-01-31' })).rejects.toMatchObject({ field: 'dateFrom' });
    await expect(checkFilters(scope, sales, { dateFrom: '2026-02-30' })).rejects.toMatchObject({ field: 'dateFrom' });
    expect(await checkFilters(scope, sales, { dateFrom: ' 2026-01-01 ', dateTo: undefined })).toEqual({ filters: { dateFrom: '2026-01-01' }, labels: {} });
  });
});
