import path from 'node:path';
import { z } from 'zod';

/** Values accepted for `CHALLENGE_PROVIDER`. */
export const CHALLENGE_PROVIDERS = ['altcha', 'turnstile', 'off'] as const;

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATABASE_URL: optionalText.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default('.data'),
  REDIS_URL: optionalText.pipe(
    z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  ),
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  TRUST_PROXY: optionalText,
  CHALLENGE_PROVIDER: z.enum(CHALLENGE_PROVIDERS).default('altcha'),
  TURNSTILE_SECRET: optionalText,
  OUTBOX_DIR: optionalText,
  UPLOAD_DIR: optionalText,
  MAIL_TRANSPORT: z.enum(['file', 'smtp']).default('file'),
  SMTP_URL: optionalText,
  SMS_TRANSPORT: z
    .string()
    .trim()
    .regex(/^(file|https?:\/\/\S+)$/, 'must be "file" or the http(s):// URL of an SMS gateway')
    .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), 'must not carry credentials (user:password@)')
    .default('file'),
  PUSH_TRANSPORT: z.enum(['file', 'fcm']).default('file'),
  FCM_PROJECT_ID: optionalText,
  FCM_CREDENTIALS_FILE: optionalText,
  FCM_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  PUBLIC_APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  PUBLIC_API_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), 'must not carry credentials (user:password@)')
      // Checked on the text: the URL parser drops an empty `?` or `#`.
      .refine((v) => !/[?#]/.test(v), 'must not have a query (?) or fragment (#)')
      .optional(),
  ),
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: optionalText,
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  WEBHOOK_RETRY_BASE_MS: positiveInt.default(30_000),
  WEBHOOK_RETRY_CAP_MS: positiveInt.default(21_600_000),
  WEBHOOK_MAX_ATTEMPTS: positiveInt.default(12),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(120),
  RATE_LIMIT_PER_HOUR: positiveInt.default(2000),
  // At least the highest cost one query may have (MAX_QUERY_COMPLEXITY), so every query allowed can
  // run. The default holds a web dashboard's first view twice over (`me`, `dashboardStats`,
  // `monthlySales` and an orders page sent at once: about 70,000), so a reload right after it is not refused.
  GRAPHQL_COST_MAXIMUM: z.coerce.number().int().min(50_000, 'must be at least 50000, the highest cost of one query').default(150_000),
  GRAPHQL_COST_RESTORE_RATE: positiveInt.default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Validated service configuration: the only view of `process.env` the code has. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /** Explicit signing key; when absent the runtime generates one and keeps it in `dataDir`. */
  jwtSecret?: string;
  trustProxy?: boolean | number | string;
  challengeProvider: (typeof CHALLENGE_PROVIDERS)[number];
  turnstileSecret?: string;
  outboxDir: string;
  mailTransport: 'file' | 'smtp';
  smtpUrl?: string;
  /** `file`, or the URL of an HTTP SMS gateway that takes POST {to, text}. */
  smsTransport: string;
  /** Pushes: the file outbox (default) or FCM HTTP v1 with a service account. */
  push: { transport: 'file' | 'fcm'; fcmProjectId?: string; fcmCredentialsFile?: string; fcmApiUrl: string };
  /**
   * Origin of the web app that users open: the base of links in e-mails and the WebAuthn
   * relying party (its host name is the RP ID). Defaults to http://localhost:PORT.
   */
  publicAppUrl: URL;
  /**
   * Where clients reach this service, without a trailing slash (`https://api.example.com`, or with
   * the path a proxy mounts it under): the base of the absolute URLs the API hands out (export
   * download links). Unset: each request's own protocol and host (per TRUST_PROXY) are used.
   */
  publicApiUrl?: string;
  /** Where uploaded files (grievance photos) are kept; unset: in PostgreSQL (bytea). */
  uploadDir?: string;
  webhook: {
    allowedPrivateHosts: string[];
    timeoutMs: number;
    retryBaseMs: number;
    retryCapMs: number;
    maxAttempts: number;
  };
  rateLimit: { perMinute: number; perHour: number };
  /** Each caller's GraphQL cost budget: a bucket of `maximum` units refilled at `restoreRate` a second. */
  graphqlCost: { maximum: number; restoreRate: number };
  logLevel: string;
}

/** Thrown when an environment variable has a value the service cannot run with. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new ConfigError('Invalid environment variable JWT_SECRET: required when NODE_ENV=production');
  }
  if (e.NODE_ENV === 'production' && e.CHALLENGE_PROVIDER === 'off') {
    throw new ConfigError('Invalid environment variable CHALLENGE_PROVIDER: "off" is refused when NODE_ENV=production');
  }
  if (e.CHALLENGE_PROVIDER === 'turnstile' && !e.TURNSTILE_SECRET) {
    throw new ConfigError('Invalid environment variable TURNSTILE_SECRET: required when CHALLENGE_PROVIDER=turnstile');
  }
  if (e.NODE_ENV === 'production' && !e.PUBLIC_APP_URL) {
    throw new ConfigError('Invalid environment variable PUBLIC_APP_URL: required when NODE_ENV=production (links in e-mails and passkeys use it)');
  }
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) {
    throw new ConfigError('Invalid environment variable SMTP_URL: required when MAIL_TRANSPORT=smtp');
  }
  if (e.PUSH_TRANSPORT === 'fcm' && !e.FCM_PROJECT_ID) {
    throw new ConfigError('Invalid environment variable FCM_PROJECT_ID: required when PUSH_TRANSPORT=fcm');
  }
  if (e.PUSH_TRANSPORT === 'fcm' && !e.FCM_CREDENTIALS_FILE) {
    throw new ConfigError('Invalid environment variable FCM_CREDENTIALS_FILE: required when PUSH_TRANSPORT=fcm');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    challengeProvider: e.CHALLENGE_PROVIDER,
    turnstileSecret: e.TURNSTILE_SECRET,
    outboxDir: path.resolve(e.OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    uploadDir: e.UPLOAD_DIR === undefined ? undefined : path.resolve(e.UPLOAD_DIR),
    mailTransport: e.MAIL_TRANSPORT,
    smtpUrl: e.SMTP_URL,
    smsTransport: e.SMS_TRANSPORT,
    push: {
      transport: e.PUSH_TRANSPORT,
      fcmProjectId: e.FCM_PROJECT_ID,
      fcmCredentialsFile: e.FCM_CREDENTIALS_FILE === undefined ? undefined : path.resolve(e.FCM_CREDENTIALS_FILE),
      fcmApiUrl: (e.FCM_API_URL ?? 'https://fcm.googleapis.com/v1').replace(/\/+$/, ''),
    },
    publicAppUrl: new URL(e.PUBLIC_APP_URL ?? `http://localhost:${e.PORT}`),
    publicApiUrl: e.PUBLIC_API_URL === undefined ? undefined : new URL(e.PUBLIC_API_URL).href.replace(/\/+$/, ''),
    webhook: {
      allowedPrivateHosts: (e.WEBHOOK_ALLOWED_PRIVATE_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryCapMs: e.WEBHOOK_RETRY_CAP_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
    },
    rateLimit: { perMinute: e.RATE_LIMIT_PER_MINUTE, perHour: e.RATE_LIMIT_PER_HOUR },
    graphqlCost: { maximum: e.GRAPHQL_COST_MAXIMUM, restoreRate: e.GRAPHQL_COST_RESTORE_RATE },
    logLevel: e.LOG_LEVEL,
  };
}
