import { afterAll, beforeAll, expect, it } from 'vitest';
import { rateListImport } from '../../src/domains/imports/rate-list.import';
import { createWorkspace, seedCatalog } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { shiftDay } from '../../src/domains/workspace/local-day';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(() => t?.close());

it('50k rows', async () => {
  const A = await createWorkspace(t);
  const c = await seedCatalog(t, A);
  const conn = t.orm.em.fork().getConnection();
  const N = 50_000;
  await conn.execute(`insert into product_variant (organization_id, product_id, variant_name, item_sku_code, mrp, sp) select ?, ?, 'v'||g, 'SKU-'||g, 100, 90 from generate_series(1, ?) g`, [A.organizationId, c.productId, N]);
  await conn.execute(`insert into variant_price (organization_id, variant_id, sp, mrp, effective_from, source) select organization_id, id, sp, mrp, current_date - 30, 3 from product_variant where organization_id = ? and item_sku_code like 'SKU-%'`, [A.organizationId]);
  const today = new Date().toISOString().slice(0, 10);
  const rows = Array.from({ length: N }, (_, i) => ({ rowNumber: i + 2, row: rateListImport.parse({ sku: `SKU-${i + 1}`, price: String(80 + (i % 10)), mrp: '', effective_from: i % 2 ? shiftDay(today, 5) : '' }) as never }));
  const ctx = { organizationId: A.organizationId, userId: A.adminId, apiKeyId: null };
  const em = t.orm.em.fork();
  let t0 = Date.now();
  const failures = await rateListImport.check(em, ctx, rows);
  console.log('check ms', Date.now() - t0, failures.length);
  t0 = Date.now();
  const counts = await em.transactional((tx) => rateListImport.write(tx, ctx, rows));
  console.log('write ms', Date.now() - t0, counts);
  t0 = Date.now();
  const again = await em.transactional((tx) => rateListImport.write(tx, ctx, rows));
  console.log('rewrite ms', Date.now() - t0, again);
  t0 = Date.now();
  const res = await t.request({ method: 'GET', url: `/api/v1/products/rate-list?limit=100`, token: A.token });
  console.log('rate list ms', Date.now() - t0, res.json().pagination);
  expect(failures).toEqual([]);
}, 300_000);
