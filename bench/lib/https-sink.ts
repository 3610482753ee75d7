import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** A local HTTPS receiver that answers 200 at once and reports when each numbered request arrives. */
export interface HttpsSink {
  url: string;
  /** The certificate authority of its certificate, for clients in this process. */
  ca: string;
  /** Calls `onArrival` with the `bench_seq` found in each body from now on. */
  listen(onArrival: (seq: number, at: number) => void): void;
  close(): Promise<void>;
}

export async function startHttpsSink(tls: { key: string; cert: string; caCert: string }): Promise<HttpsSink> {
  let onArrival: (seq: number, at: number) => void = () => undefined;
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const seq = /"bench_seq":(\d+)/.exec(Buffer.concat(chunks).toString('utf8'));
      if (seq) onArrival(Number(seq[1]), at);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    ca: tls.caCert,
    listen: (callback) => {
      onArrival = callback;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
