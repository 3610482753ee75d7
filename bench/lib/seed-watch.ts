import { readFileSync } from 'node:fs';
import pg from 'pg';

/** What seeding a dataset cost PostgreSQL, beside its time. */
export interface SeedCost {
  /**
   * The largest peak resident memory of the seed's PostgreSQL backends (kernel high-water mark,
   * shared buffers it touched included), in MB; null when their /proc entries cannot be read (a
   * server on another machine).
   */
  peakBackendRssMb: number | null;
  /** Bytes the database wrote to temporary files meanwhile (sorts and CTEs that outgrew work_mem). */
  tempBytes: number;
}

function highWaterMarkKb(pid: number): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Watches the seed's connections (application_name `seed`) to the database at `url` every second
 * until `stop()`: their backends' peak RSS, and the database's temporary bytes. A backend's
 * high-water mark covers its whole life, so sampling once a second misses only its last second.
 */
export async function watchSeed(url: string): Promise<{ stop(): Promise<SeedCost> }> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-seed-watch' });
  await client.connect();
  const tempBytes = async () =>
    Number((await client.query<{ b: string }>('select temp_bytes as b from pg_stat_database where datname = current_database()')).rows[0].b);
  const before = await tempBytes();
  let peakKb: number | null = null;
  let sampling = Promise.resolve();
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = 'seed' and datname = current_database()`);
    for (const { pid } of rows) {
      const kb = highWaterMarkKb(pid);
      if (kb !== null) peakKb = Math.max(peakKb ?? 0, kb);
    }
  };
  const timer = setInterval(() => {
    sampling = sampling.then(sample).catch(() => undefined);
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      // Backends report their statistics as they exit; give the seed's a moment.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      try {
        return { peakBackendRssMb: peakKb === null ? null : peakKb / 1024, tempBytes: (await tempBytes()) - before };
      } finally {
        await client.end();
      }
    },
  };
}
