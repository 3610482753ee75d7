import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createWorkspace, unique } from '../helpers/fixtures';
import { csv, upload, xlsx } from '../helpers/imports';
import { query } from '../helpers/tenant-keys';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const HEADER = ['code', 'name', 'kind', 'target_kind', 'target', 'valid_from', 'valid_to', 'scope', 'scope_ids', 'priority', 'stackable', 'budget_kind', 'budget', 'status', 'min_qty', 'discount_percent', 'discount_amount', 'free_qty', 'free_sku', 'recursive'];

/** POST /imports/schemes: one row per slab grouped by code, checked by the schemes' own rules, idempotent by code. */
describe('imports: schemes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const q = <T extends Record<string, unknown>>(text: string, params: unknown[]) => query<T>(t.db.url, text, params);

  async function world() {
    const ws = await createWorkspace(t);
    const n = unique();
    const cls = `Drinks ${n}`;
    const res = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: cls, unit: 'bottle' } });
    const classId = res.json().data.id as number;
    await createProduct(t, ws, { product_name: `Cola ${n}`, product_class_id: classId, variants: [{ variant_name: '300 ml', item_sku_code: `CA-${n}`, mrp: 12, sp: 10 }, { variant_name: '1 l', item_sku_code: `CB-${n}`, mrp: 22, sp: 20 }] });
    return { ws, n, cls };
  }
  const schemesOf = (organizationId: number) =>
    q<{ code: string; name: string; kind: number; target_kind: number; slabs: Array<Record<string, unknown>>; valid_to: string | null }>(
      'select code, name, kind, target_kind, slabs, valid_to::text from scheme where organization_id = $1 order by code',
      [organizationId],
    );
  const row = (over: Partial<Record<(typeof HEADER)[number], string | number>>) => HEADER.map((h) => over[h] ?? '');

  it('creates schemes from slab rows, updates a changed one, and a re-upload changes nothing', async () => {
    const { ws, n, cls } = await world();
    const base = { name: 'Ten plus one', kind: 'free_goods', target_kind: 'variant', target: `CA-${n}`, valid_from: '2026-12-01' };
    const rows = [
      row({ code: `F${n}`, ...base, min_qty: 10, free_qty: 1 }),
      row({ code: `F${n}`, ...base, min_qty: 20, free_qty: 3, free_sku: `CB-${n}` }),
      row({ code: `D${n}`, name: 'Class discount', kind: 1, target_kind: 'product_class', target: cls, valid_from: '2026-12-01', valid_to: '2026-12-31', min_qty: 5, discount_percent: 5 }),
    ];
    const res = await upload(t, 'schemes', 'schemes.csv', csv([HEADER, ...rows]), { token: ws.token });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ status: 'succeeded', inserted: 3, updated: 0, unchanged: 0 });
    const stored = await schemesOf(ws.organizationId);
    expect(stored.map((s) => [s.code, s.kind, s.slabs.length])).toEqual([[`D${n}`, 1, 1], [`F${n}`, 2, 2]]);
    expect(stored[1].slabs[1]).toMatchObject({ min_qty: 20, free_qty: 3 });

    // The XLSX has real date cells: they read as YYYY-MM-DD.
    const dated = rows.map((r) => r.map((v, i) => (HEADER[i].startsWith('valid_') && v !== '' ? new Date(`${v}T00:00:00Z`) : v)));
    const again = await upload(t, 'schemes', 'schemes.xlsx', await xlsx([HEADER, ...dated]), { token: ws.token });
    expect(again.json().data).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 3 });

    rows[2] = row({ code: `D${n}`, name: 'Class discount', kind: 1, target_kind: 'product_class', target: cls, valid_from: '2026-12-01', valid_to: '2027-01-15', min_qty: 5, discount_percent: 5 });
    const changed = await upload(t, 'schemes', 'schemes.csv', csv([HEADER, ...rows]), { token: ws.token });
    expect(changed.json().data).toMatchObject({ status: 'succeeded', inserted: 0, updated: 1, unchanged: 2 });
    expect((await schemesOf(ws.organizationId))[0].valid_to).toBe('2027-01-15');
  });

  it("fails with the schemes' own rules, on the row of the slab, and fails the scheme's other rows too", async () => {
    const { ws, n } = await world();
    const base = { code: `X${n}`, name: 'Bad', kind: 'discount', target_kind: 'variant', target: `CA-${n}`, valid_from: '2026-12-01' };
    const file = csv([
      HEADER,
      row({ ...base, min_qty: 10, discount_percent: 5 }),
      row({ ...base, min_qty: 5, discount_percent: 10 }),
      row({ code: `Y${n}`, name: 'Unknown', kind: 'discount', target_kind: 'variant', target: 'NOPE', valid_from: '2026-12-01', min_qty: 1, discount_amount: 1 }),
      row({ code: `Z${n}`, name: 'Bad kind', kind: 'gift', target_kind: 'variant', target: `CA-${n}`, valid_from: '2026-12-01', min_qty: 1 }),
    ]);
    const res = await upload(t, 'schemes', 'bad.csv', file, { token: ws.token });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'failed', failed_rows: 4, inserted: 0 });
    expect(data.errors).toEqual([
      { row: 2, field: '', message: `not written: scheme X${n} has a failed row (3)` },
      { row: 3, field: 'min_qty', message: 'must be greater than the previous slab’s: slabs ascend' },
      { row: 4, field: 'target', message: 'does not name a SKU of this workspace' },
      { row: 5, field: 'kind', message: 'must be one of 1 (discount), 2 (free_goods)' },
    ]);
    expect(await schemesOf(ws.organizationId)).toEqual([]);
  });

  it('rows of one scheme must agree on its fields', async () => {
    const { ws, n } = await world();
    const base = { code: `A${n}`, kind: 'discount', target_kind: 'variant', target: `CA-${n}`, valid_from: '2026-12-01' };
    const res = await upload(t, 'schemes', 'a.csv', csv([HEADER, row({ ...base, name: 'One', min_qty: 1, discount_amount: 1 }), row({ ...base, name: 'Two', min_qty: 2, discount_amount: 2 })]), { token: ws.token });
    expect(res.json().data.errors).toContainEqual({ row: 3, field: 'name', message: `differs from row 2, the first row of scheme A${n}` });
  });

  it('the template imports as it stands once its target SKU exists', async () => {
    const ws = await createWorkspace(t);
    const cls = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: 'Milk', unit: 'litre' } });
    await createProduct(t, ws, { product_name: 'Toned Milk', product_class_id: cls.json().data.id, variants: [{ variant_name: 'Toned Milk 500 ml', item_sku_code: 'TM-500', mrp: 30, sp: 28.5 }] });
    const template = await t.request({ method: 'GET', url: '/api/v1/imports/templates/schemes', token: ws.token });
    expect(template.statusCode).toBe(200);
    const res = await upload(t, 'schemes', 'schemes-template.xlsx', template.rawPayload, { token: ws.token });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ status: 'succeeded', inserted: 1 });
    const variants = await t.request({ method: 'GET', url: '/api/v1/imports/templates/product-variants', token: ws.token });
    const again = await upload(t, 'product-variants', 'v.xlsx', variants.rawPayload, { token: ws.token });
    expect(again.json().data, again.body).toMatchObject({ status: 'succeeded', unchanged: 0, updated: 1 });
  });
});
