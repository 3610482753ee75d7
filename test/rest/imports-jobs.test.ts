import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, unique } from '../helpers/fixtures';
import { csv, upload } from '../helpers/imports';
import { query } from '../helpers/tenant-keys';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const HEADER = ['product_name', 'product_class', 'variant_name', 'item_sku_code', 'mrp', 'sp'];

/** Imports over 5,000 rows (or async=true) are stored and run by the graphile-worker task run_import, with progress. */
describe('imports run as jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const q = <T extends Record<string, unknown>>(text: string, params: unknown[]) => query<T>(t.db.url, text, params);

  async function poll(token: string, id: number): Promise<Array<Record<string, unknown>>> {
    const seen: Array<Record<string, unknown>> = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await t.request({ method: 'GET', url: `/api/v1/imports/${id}`, token });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      seen.push(data);
      if (!['pending', 'running'].includes(data.status)) return seen;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${data.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('a 6,000-row file is queued (202), then written by the worker, its progress shown; its upload is deleted after', async () => {
    const ws = await createWorkspace(t);
    const n = unique();
    await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: `C ${n}`, unit: 'piece' } });
    const rows: Array<Array<string | number>> = [HEADER];
    for (let i = 0; i < 6000; i++) rows.push([`Product ${n} ${i % 100}`, `C ${n}`, `V ${i}`, `S-${n}-${i}`, 10, 9]);
    const res = await upload(t, 'product-variants', 'big.csv', csv(rows), { token: ws.token });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id;
    expect(res.json().data).toMatchObject({ status: 'pending', total_rows: 6000, processed_rows: 0 });
    expect((await q<{ n: number }>('select count(*)::int as n from import_chunk where organization_id = $1 and import_job_id = $2', [ws.organizationId, id]))[0].n).toBe(1);

    await t.startWorker();
    const seen = await poll(ws.token, id);
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ status: 'succeeded', total_rows: 6000, processed_rows: 6000, inserted: 6000, failed_rows: 0 });
    for (const s of seen) expect(s.processed_rows as number).toBeLessThanOrEqual(6000);
    expect((await q<{ n: number }>('select count(*)::int as n from product_variant where organization_id = $1', [ws.organizationId]))[0].n).toBe(6000);
    expect((await q<{ n: number }>('select count(*)::int as n from import_chunk where organization_id = $1', [ws.organizationId]))[0].n).toBe(0);

    // async=true for a small file; a failing row in a job: nothing written, failed rows kept.
    const small = csv([HEADER, [`Product ${n} 0`, '', 'New', `NEW-${n}`, 10, 9], [`Product ${n} 0`, '', 'Bad', `BAD-${n}`, 10, 11]]);
    const queued = await upload(t, 'product-variants', 'small.csv', small, { token: ws.token, query: 'async=true' });
    expect(queued.statusCode, queued.body).toBe(202);
    const done = (await poll(ws.token, queued.json().data.id)).pop()!;
    expect(done).toMatchObject({ status: 'failed', failed_rows: 1, inserted: 0, errors: [{ row: 3, field: 'sp', message: 'must not exceed mrp' }] });
    expect((await q<{ n: number }>('select count(*)::int as n from product_variant where organization_id = $1 and item_sku_code = $2', [ws.organizationId, `NEW-${n}`]))[0].n).toBe(0);
  });
});
