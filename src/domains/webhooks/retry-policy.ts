/** Webhook retry settings (WEBHOOK_* in the environment). */
export interface RetrySettings {
  retryBaseMs: number;
  retryCapMs: number;
  maxAttempts: number;
}

/** Whether an attempt delivered the event: a 2xx answer. */
export function isDelivered(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** Whether a failed attempt is tried again: 5xx, 408, 429 and no answer at all (timeout, connection, TLS). */
export function isRetryable(status: number | null): boolean {
  return status === null || status >= 500 || status === 408 || status === 429;
}

/**
 * Delay before the attempt after attempt number `attempt` (1-based): base × 2^(attempt−1), at most
 * the cap, with ±20% jitter so retries of many deliveries spread out. A 429's Retry-After is
 * honoured when longer, within the cap.
 */
export function retryDelayMs(attempt: number, settings: RetrySettings, retryAfterSeconds: number | null = null, random = Math.random): number {
  const exponential = Math.min(settings.retryBaseMs * 2 ** (attempt - 1), settings.retryCapMs);
  const jittered = Math.min(exponential * (0.8 + 0.4 * random()), settings.retryCapMs);
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds * 1000, settings.retryCapMs);
  return Math.round(Math.max(jittered, asked));
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
