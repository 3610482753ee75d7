import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { findFreePort } from '../../src/db/embedded-postgres';

/** The service, started as `npm start` starts it (node dist/src/main.js), in a process of its own. */
export interface ServiceProcess {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/** Polls `url` until it answers 200; resolves to the milliseconds it took. */
export async function waitUntilReady(url: string, startedAt: number, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return performance.now() - startedAt;
    } catch {
      // not listening yet
    }
    if (performance.now() - startedAt > timeoutMs) throw new Error(`${url} was not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * What the benchmarked service runs with beyond `npm start`'s defaults: production mode, and the
 * general rate limit and GraphQL cost budget raised so the load generator is never refused.
 */
export const BENCH_SERVICE_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
  RATE_LIMIT_PER_MINUTE: '100000000',
  RATE_LIMIT_PER_HOUR: '1000000000',
  // Likewise each key's GraphQL cost budget (100 workspaces' pages over one key each); the
  // noisy-neighbour pair runs a service with the real one.
  GRAPHQL_COST_RESTORE_RATE: '1000000000',
};

/** Sends SIGTERM and waits for the process to end (SIGKILL after 20 s). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** The Node options `npm start` runs dist/src/main.js with (package.json), so the bench runs the service alike. */
export function startNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const options = /\bnode ((?:--\S+ )*)dist\/src\/main\.js/.exec(scripts.start)?.[1];
  if (options === undefined) throw new Error(`npm start's script does not run dist/src/main.js: ${scripts.start}`);
  return options.split(' ').filter(Boolean);
}

/** Starts the built service (API and worker) over `databaseUrl` with BENCH_SERVICE_ENV, and waits for /readyz. */
export async function startService(databaseUrl: string, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, [...startNodeOptions(), 'dist/src/main.js'], {
    env: {
      ...process.env,
      ...BENCH_SERVICE_ENV,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_APP_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${baseUrl}/readyz`, performance.now(), child);
  return { pid: child.pid!, baseUrl, stop: () => stopProcess(child) };
}
