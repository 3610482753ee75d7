import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Issue 21 §3, guarded on the source: jobs are queued only through jobs/enqueue.ts, and the
 * webhook modules import each other without a circle (the producer not at all from the engine).
 */

const ROOT = path.resolve(__dirname, '../..');
const WEBHOOKS = 'src/domains/webhooks';

/** Every .ts file under `dir` (relative to the project root). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/** The relative imports of a file (type-only ones too: a circle of types is still a circle), as project paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*?from '(\.[^']+)'/gm)].map((m) => `${path.join(path.dirname(file), m[1])}.ts`);
}

describe('job queue boundaries', () => {
  it('no file but jobs/enqueue.ts writes graphile_worker.add_job or add_jobs', () => {
    const writers = [...sources('src'), ...sources('jobs'), ...sources('rest-shim')].filter(
      (file) => file !== 'jobs/enqueue.ts' && /graphile_worker\.add_jobs?\s*\(/.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(writers).toEqual([]);
  });

  it('the webhook producer does not import the delivery engine, its statements or its batcher', () => {
    const producer = importsOf(`${WEBHOOKS}/webhook-event-queue.ts`);
    expect(producer.length).toBeGreaterThan(0);
    for (const engineFile of ['delivery-engine', 'delivery-statements', 'statement-batcher']) {
      expect(producer).not.toContain(`${WEBHOOKS}/${engineFile}.ts`);
    }
  });

  it('the webhook modules and jobs/ import each other without a circle', () => {
    const files = [...sources(WEBHOOKS), ...sources('jobs'), 'src/db/tenant-sql.ts', 'src/db/sql-client.ts'];
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));
    expect(graph.get(`${WEBHOOKS}/delivery-engine.ts`)).toContain(`${WEBHOOKS}/delivery-statements.ts`);
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
