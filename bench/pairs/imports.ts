import { randomBytes } from 'node:crypto';
import type { BenchContext } from '../lib/bench-context';
import { issueKeys } from '../lib/bench-database';
import { atLeast, figure, type Figure } from '../lib/report';
import { median } from '../lib/stats';

/** Rows of the import (issue 24: "an import of 50,000 variants"). */
export const IMPORT_ROWS = 50_000;
/** Variants per product (the catalogue allows 100). */
const PER_PRODUCT = 100;

/** A product-variants CSV of IMPORT_ROWS new SKUs (prefix `run`) in a class of the workspace. */
function variantsCsv(run: string, productClass: string): string {
  const lines = ['product_name,product_class,variant_name,item_sku_code,mrp,sp,variant_size,variant_quantity,container_quantity'];
  for (let i = 0; i < IMPORT_ROWS; i += 1) {
    lines.push(`Bench ${run} ${Math.floor(i / PER_PRODUCT)},"${productClass.replaceAll('"', '""')}",Variant ${i},${run}-${i},${100 + (i % 50)},${90 + (i % 50)},${i % 7} kg,1,${1 + (i % 12)}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

function multipart(fileName: string, content: string): { body: Buffer; type: string } {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * "An import of 50,000 variants": POST /imports/product-variants of a 50,000-row CSV of new SKUs
 * (500 new products) to the running service (API and worker), which queues it (over 5,000 rows),
 * then GET /imports/{id} until it is done. Rows per second from the POST to the answer that shows
 * it succeeded (upload, queue, the worker's read, checks and one transaction, and the polling),
 * the median of the rounds; a re-upload of the same file (every row unchanged) is logged too.
 */
export async function measureImports(ctx: BenchContext): Promise<Figure[]> {
  const organizationId = ctx.main.organizationIds[0];
  const [key] = (await issueKeys(ctx.pool, [organizationId], 'read,write,imports', 1, 'bench-imports')).get(organizationId)!;
  const { rows } = await ctx.pool.query<{ name: string }>('select name from product_class where organization_id = $1 order by id limit 1', [organizationId]);
  const headers = { 'x-api-key': key };
  const importOnce = async (csv: string) => {
    const { body, type } = multipart('variants.csv', csv);
    const started = performance.now();
    const res = await fetch(`${ctx.service.baseUrl}/api/v1/imports/product-variants`, { method: 'POST', headers: { ...headers, 'content-type': type }, body });
    const answer = (await res.json()) as { data: { id: number; status: string } };
    const queuedMs = performance.now() - started;
    if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    for (;;) {
      const polled = (await (await fetch(`${ctx.service.baseUrl}/api/v1/imports/${answer.data.id}`, { headers })).json()) as { data: Record<string, number | string> };
      if (polled.data.status !== 'pending' && polled.data.status !== 'running') {
        if (polled.data.status !== 'succeeded') throw new Error(`import ${answer.data.id} ended ${polled.data.status}: ${polled.data.error}`);
        const ms = performance.now() - started;
        // Where the time went: the upload's answer, the wait for the worker, the worker's run.
        const at = (name: string) => new Date(String(polled.data[name])).getTime();
        const phases = `answered ${queuedMs.toFixed(0)} ms, waited ${at('started_at') - at('created_at')} ms, ran ${at('finished_at') - at('started_at')} ms`;
        return { ms, data: polled.data, phases };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const rates: number[] = [];
  const rawRates: number[] = [];
  for (let round = 0; round < ctx.rounds; round += 1) {
    const run = `B${Date.now().toString(36)}${round}`;
    const rawMs = await rawInsert(ctx, organizationId, run);
    rawRates.push(IMPORT_ROWS / (rawMs / 1000));
    const csv = variantsCsv(run, rows[0].name);
    const first = await importOnce(csv);
    const again = await importOnce(csv);
    const rate = IMPORT_ROWS / (first.ms / 1000);
    rates.push(rate);
    ctx.log(
      `  import of ${IMPORT_ROWS.toLocaleString('en-US')} variants (${(csv.length / 1e6).toFixed(1)} MB CSV): ${first.ms.toFixed(0)} ms (${first.phases}), ${rate.toFixed(0)} rows/s, inserted ${first.data.inserted}; ` +
        `re-upload ${again.ms.toFixed(0)} ms (${again.phases}), unchanged ${again.data.unchanged}; raw insert of the same rows ${rawMs.toFixed(0)} ms`,
    );
    // The bench's rows stay out of the next run's catalogue.
    await ctx.pool.query("delete from product_variant where organization_id = $1 and product_id in (select id from product where organization_id = $1 and name like 'Bench B%')", [organizationId]);
    await ctx.pool.query("delete from product where organization_id = $1 and name like 'Bench B%'", [organizationId]);
  }
  return [figure(`Import of ${IMPORT_ROWS.toLocaleString('en-US')} product variants (CSV, queued job)`, 'rows/s', median(rates), median(rawRates), atLeast(5000, 'rows/s'))];
}

/**
 * The baseline: the same rows (and their 500 products) inserted by one raw statement each through
 * pg, in a transaction rolled back; its time in ms. What a database-side load costs at best (the
 * rows' index entries and foreign-key checks), without reading, checking or reporting.
 */
async function rawInsert(ctx: BenchContext, organizationId: number, run: string): Promise<number> {
  const client = await ctx.pool.connect();
  try {
    const started = performance.now();
    await client.query('begin');
    await client.query(
      `insert into product (organization_id, name, product_class_id, hsn, color_code, description, status)
       select $1, 'Bench ' || $2 || ' ' || i, (select id from product_class where organization_id = $1 order by id limit 1), '', '#000000', '', 1
         from generate_series(0, $3 - 1) as i`,
      [organizationId, run, IMPORT_ROWS / PER_PRODUCT],
    );
    await client.query(
      `insert into product_variant (organization_id, product_id, variant_name, item_sku_code, mrp, sp, variant_size, variant_quantity, container_quantity, unit_quantity, status)
       select $1, p.id, 'Variant ' || i, $2 || '-' || i, 100 + i % 50, 90 + i % 50, (i % 7) || ' kg', 1, 1 + i % 12, 1, 1
         from generate_series(0, $3 - 1) as i join product p on p.organization_id = $1 and p.name = 'Bench ' || $2 || ' ' || (i / ${PER_PRODUCT})`,
      [organizationId, run, IMPORT_ROWS],
    );
    const ms = performance.now() - started;
    await client.query('rollback');
    return ms;
  } finally {
    client.release();
  }
}
