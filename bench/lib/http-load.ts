import autocannon from 'autocannon';

/** One request of a load run. */
export interface HttpRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a load run measured. */
export interface LoadResult {
  /** Completed 2xx requests per second. */
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered with something else than 2xx, or failed. */
  failures: number;
}

/**
 * Drives `baseUrl` with autocannon: `connections` keep-alive connections for `seconds`, each
 * request built by `next()` (a different workspace or order each time); with `rate`, a steady
 * number of requests per second in all instead of as many as the server takes. With `latencies`,
 * each answered request's latency (ms) is added to it, for percentiles over several runs.
 */
export async function httpLoad(options: { baseUrl: string; connections: number; seconds: number; next: () => HttpRequest; rate?: number; latencies?: number[] }): Promise<LoadResult> {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        duration: options.seconds,
        overallRate: options.rate,
        requests: [
          {
            setupRequest: (request) => {
              const r = options.next();
              return { ...request, method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body };
            },
          },
        ],
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    const { latencies } = options;
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  return { rps: (result.requests.total - result.non2xx) / (result.duration || options.seconds), p50: result.latency.p50, p99: result.latency.p99, failures };
}
