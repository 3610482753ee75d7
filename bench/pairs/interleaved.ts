import type { LoadResult } from '../lib/http-load';
import { median } from '../lib/stats';

/** Medians over rounds of a baseline and ours, measured alternately, baseline first. */
export interface PairResult {
  baseline: LoadResult;
  ours: LoadResult;
}

/** Runs `baseline` then `ours`, `rounds` times (after one short warm-up of each), and takes medians. */
export async function interleaved(
  rounds: number,
  log: (line: string) => void,
  label: string,
  baseline: (warmUp: boolean) => Promise<LoadResult>,
  ours: (warmUp: boolean) => Promise<LoadResult>,
): Promise<PairResult> {
  await baseline(true);
  await ours(true);
  const b: LoadResult[] = [];
  const o: LoadResult[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    b.push(await baseline(false));
    o.push(await ours(false));
    const last = (r: LoadResult) => `${Math.round(r.rps)} req/s, p99 ${r.p99.toFixed(1)} ms${r.failures ? `, ${r.failures} FAILED` : ''}`;
    log(`  ${label} round ${round}: baseline ${last(b.at(-1)!)} · ours ${last(o.at(-1)!)}`);
  }
  const medianOf = (rs: LoadResult[]): LoadResult => ({
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    failures: rs.reduce((sum, r) => sum + r.failures, 0),
  });
  return { baseline: medianOf(b), ours: medianOf(o) };
}
