import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, unique } from '../helpers/fixtures';
import { csv } from '../helpers/imports';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const IMPORT_FILE = `mutation($input: ImportFileInput!) {
  importFile(input: $input) { import { id kind status dryRun totalRows validRows failedRows inserted updated unchanged processedRows fileSha256 } failedRows { rowNumber field message } }
}`;

/** GraphQL: importFile (base64), import(id), imports; the same service, roles and scopes as REST. */
describe('imports over GraphQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('imports, dry-runs, reports failed rows, lists; employees and other scopes are refused; another workspace sees nothing', async () => {
    const ws = await createWorkspace(t);
    const n = unique();
    await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: `K ${n}`, unit: 'piece' } });
    const file = csv([['product_name', 'product_class', 'variant_name', 'item_sku_code', 'mrp', 'sp'], [`P ${n}`, `K ${n}`, 'V1', `G1-${n}`, 10, 9], [`P ${n}`, `K ${n}`, 'V2', `G2-${n}`, 10, 9]]);
    const input = { kind: 'product-variants', fileName: 'v.csv', contentBase64: Buffer.from(file).toString('base64') };

    const dry = await t.graphql<{ importFile: { import: Record<string, unknown> } }>(IMPORT_FILE, { input: { ...input, dryRun: true } }, ws.token);
    expect(dry.errors).toBeUndefined();
    expect(dry.data!.importFile.import).toMatchObject({ kind: 'product-variants', status: 'SUCCEEDED', dryRun: true, inserted: 2 });

    const done = await t.graphql<{ importFile: { import: { id: number } & Record<string, unknown> } }>(IMPORT_FILE, { input }, ws.token);
    expect(done.data!.importFile.import).toMatchObject({ status: 'SUCCEEDED', inserted: 2, totalRows: 2, processedRows: 2 });
    const again = await t.graphql<{ importFile: { import: Record<string, unknown> } }>(IMPORT_FILE, { input }, ws.token);
    expect(again.data!.importFile.import).toMatchObject({ inserted: 0, unchanged: 2 });

    const bad = csv([['product_name', 'variant_name', 'item_sku_code', 'mrp', 'sp'], [`P ${n}`, 'V3', `G3-${n}`, 10, 12]]);
    const failed = await t.graphql<{ importFile: { import: Record<string, unknown>; failedRows: unknown[] } }>(IMPORT_FILE, { input: { ...input, contentBase64: Buffer.from(bad).toString('base64') } }, ws.token);
    expect(failed.data!.importFile.import).toMatchObject({ status: 'FAILED', failedRows: 1, inserted: 0 });
    expect(failed.data!.importFile.failedRows).toEqual([{ rowNumber: 2, field: 'sp', message: 'must not exceed mrp' }]);

    const one = await t.graphql<{ import: { import: { id: number } } }>('query($id: Int!) { import(id: $id) { import { id status } } }', { id: done.data!.importFile.import.id }, ws.token);
    expect(one.data!.import.import.id).toBe(done.data!.importFile.import.id);
    const list = await t.graphql<{ imports: { nodes: unknown[]; pageInfo: { total: number } } }>('{ imports(sort: [{ field: CREATED_AT, direction: DESC }]) { nodes { id kind status } pageInfo { total } } }', {}, ws.token);
    expect(list.errors).toBeUndefined();
    expect(list.data!.imports.pageInfo.total).toBe(4);

    const missingColumn = await t.graphql(IMPORT_FILE, { input: { ...input, contentBase64: Buffer.from('a,b\n1,2\n').toString('base64') } }, ws.token);
    expect(missingColumn.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(missingColumn.errors?.[0].message).toMatch(/^file misses the columns/);

    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expect((await t.graphql(IMPORT_FILE, { input }, employee.token)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const productsKey = await createApiKey(t, ws, { scopes: 'read,write,products' });
    expect((await t.graphql(IMPORT_FILE, { input }, { apiKey: productsKey.key })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const importsKey = await createApiKey(t, ws, { scopes: 'read,write,imports' });
    expect((await t.graphql(IMPORT_FILE, { input }, { apiKey: importsKey.key })).errors).toBeUndefined();

    const B = await createWorkspace(t);
    const other = await t.graphql('query($id: Int!) { import(id: $id) { import { id } } }', { id: done.data!.importFile.import.id }, B.token);
    expect(other.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
