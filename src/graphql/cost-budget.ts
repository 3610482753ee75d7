import type { Redis } from 'ioredis';
import { IN_PROCESS_KEYS } from '../context/rate-limits';

/** A caller's bucket as GraphQL responses report it (`extensions.cost.throttleStatus`). */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/** What taking from a bucket did: `taken` false when it held less than asked (then nothing was taken). */
export interface Taken {
  taken: boolean;
  status: ThrottleStatus;
  /** Seconds until the bucket holds what was asked (0 when taken). */
  retryAfterSeconds: number;
}

/**
 * Each caller's GraphQL cost budget, a leaky bucket as Shopify's GraphQL Admin API has: it holds
 * up to `maximum`, refills at `restoreRate` a second, and a query takes its estimated cost from it
 * before it runs; `adjust` gives back what the query did not use (or takes what it used beyond).
 */
export interface CostBudget {
  /** Takes `cost` from `key`'s bucket if it holds that much; else takes nothing. */
  take(key: string, cost: number): Promise<Taken>;
  /** Adds `amount` to `key`'s bucket (negative takes), kept between 0 and the maximum. */
  adjust(key: string, amount: number): Promise<ThrottleStatus>;
  /** The bucket as it stands. */
  status(key: string): Promise<ThrottleStatus>;
}

export interface BucketSettings {
  maximum: number;
  /** Units a second. */
  restoreRate: number;
}

const retryAfter = (cost: number, available: number, restoreRate: number) => Math.max(1, Math.ceil((cost - available) / restoreRate));

/**
 * Refills the bucket for the time since it was last written, then adds ARGV[3] (negative takes)
 * when ARGV[4] is 0 or when the bucket holds at least -ARGV[3]; returns {added, available}. The
 * clock is Redis's own, so every instance sees one bucket. The key expires once the bucket would
 * be full again (a full bucket and no key are the same). Amounts travel as strings: Redis turns a
 * Lua number into an integer.
 */
const BUCKET_SCRIPT = `
local maximum = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local amount = tonumber(ARGV[3])
local onlyIfEnough = ARGV[4] == '1'
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'available', 'at')
local available = tonumber(state[1])
local at = tonumber(state[2])
if available == nil or at == nil then
  available = maximum
  at = now
end
available = math.min(maximum, available + math.max(0, now - at) / 1000 * rate)
local added = 1
if onlyIfEnough and available + amount < 0 then
  added = 0
else
  available = math.max(0, math.min(maximum, available + amount))
end
redis.call('HSET', KEYS[1], 'available', tostring(available), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((maximum - available) / rate * 1000)))
return {added, tostring(available)}
`;

/** Buckets in Redis, shared by every instance (the rate limits' store, under `namespace`). */
export function redisCostBudget(redis: Redis, namespace: string, settings: BucketSettings): CostBudget {
  redis.defineCommand('costBucket', { numberOfKeys: 1, lua: BUCKET_SCRIPT });
  const run = async (key: string, amount: number, onlyIfEnough: boolean) => {
    const command = (redis as unknown as Record<string, (...args: string[]) => Promise<[number, string]>>).costBucket;
    const [added, available] = await command.call(redis, `${namespace}:cost:${key}`, String(settings.maximum), String(settings.restoreRate), String(amount), onlyIfEnough ? '1' : '0');
    return { added: added === 1, status: statusOf(settings, Number(available)) };
  };
  return {
    async take(key, cost) {
      const { added, status } = await run(key, -cost, true);
      return { taken: added, status, retryAfterSeconds: added ? 0 : retryAfter(cost, status.currentlyAvailable, settings.restoreRate) };
    },
    adjust: async (key, amount) => (await run(key, amount, false)).status,
    status: async (key) => (await run(key, 0, false)).status,
  };
}

/** Buckets in this process (without Redis): the IN_PROCESS_KEYS most recently used callers. */
export function inProcessCostBudget(settings: BucketSettings, now: () => number = Date.now): CostBudget {
  const buckets = new Map<string, { available: number; at: number }>();
  const refilled = (key: string) => {
    const bucket = buckets.get(key) ?? { available: settings.maximum, at: now() };
    const time = now();
    bucket.available = Math.min(settings.maximum, bucket.available + (Math.max(0, time - bucket.at) / 1000) * settings.restoreRate);
    bucket.at = time;
    // Re-inserted so the map's order is least recently used first.
    buckets.delete(key);
    buckets.set(key, bucket);
    if (buckets.size > IN_PROCESS_KEYS) buckets.delete(buckets.keys().next().value!);
    return bucket;
  };
  return {
    async take(key, cost) {
      const bucket = refilled(key);
      if (bucket.available < cost) {
        return { taken: false, status: statusOf(settings, bucket.available), retryAfterSeconds: retryAfter(cost, bucket.available, settings.restoreRate) };
      }
      bucket.available -= cost;
      return { taken: true, status: statusOf(settings, bucket.available), retryAfterSeconds: 0 };
    },
    async adjust(key, amount) {
      const bucket = refilled(key);
      bucket.available = Math.max(0, Math.min(settings.maximum, bucket.available + amount));
      return statusOf(settings, bucket.available);
    },
    status: async (key) => statusOf(settings, refilled(key).available),
  };
}

/** Reported figures are whole units, rounded down (what is surely there). */
function statusOf(settings: BucketSettings, available: number): ThrottleStatus {
  return { maximumAvailable: settings.maximum, currentlyAvailable: Math.floor(available), restoreRate: settings.restoreRate };
}
