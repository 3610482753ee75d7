import { createHmac, timingSafeEqual } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';

/** One request a receiver got. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

/** How the receiver answers a request: status, optional headers and body, optional delay (ms) before answering. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

/** A real HTTPS server on 127.0.0.1 with a certificate of the tests' throwaway CA. */
export interface HttpsReceiver {
  port: number;
  /** https://127.0.0.1:<port><path> */
  url(path?: string, host?: string): string;
  received: ReceivedRequest[];
  /** Answers to give, in order; when they run out, `fallback` (default 200). */
  script(...answers: ReceiverAnswer[]): void;
  fallback: ReceiverAnswer;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startHttpsReceiver(): Promise<HttpsReceiver> {
  const tls = inject('receiverTls');
  const received: ReceivedRequest[] = [];
  const queue: ReceiverAnswer[] = [];
  const waiters: Array<() => void> = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      waiters.splice(0).forEach((wake) => wake());
      const answer = queue.shift() ?? receiver.fallback;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver: HttpsReceiver = {
    port,
    url: (path = '/hook', host = '127.0.0.1') => `https://${host}:${port}${path}`,
    received,
    fallback: { status: 200, body: 'ok' },
    script: (...answers) => queue.push(...answers),
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`expected ${count} requests, got ${received.length}`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(deadline);
            resolve(received.slice(0, count));
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/**
 * Checks X-Webhook-Signature as an integrator would, independently of the service's code:
 * `sha256=` + hex HMAC-SHA256 of `{X-Webhook-Timestamp}.{raw body}` under the secret, compared in
 * constant time.
 */
export function signatureValid(secret: string, request: ReceivedRequest): boolean {
  const timestamp = String(request.headers['x-webhook-timestamp'] ?? '');
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`);
  const given = Buffer.from(String(request.headers['x-webhook-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A delivery record as GET /developer/webhook-deliveries shows it. */
export interface LoggedDelivery {
  id: number;
  webhook_id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  sent_at: string | null;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  last_error: string | null;
  created_at: string;
}

/** `data` keys of order.created, in the interface's order (order.delivered adds delivered_at). */
export const ORDER_CREATED_KEYS = [
  'id',
  'order_code',
  'order_status',
  'user_id',
  'user_name',
  'order_total_amount',
  'order_items_count',
  'order_date',
  'production_unit_id',
  'mode_of_payment',
  'created_at',
];

/** `data` keys of user.created, as the README documents them. */
export const USER_CREATED_KEYS = ['id', 'first_name', 'last_name', 'official_email', 'primary_contact_number', 'user_type', 'role_id', 'status', 'created_at'];
