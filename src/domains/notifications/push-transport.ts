import { readFileSync } from 'node:fs';
import jwt from 'jsonwebtoken';
import type { Config } from '../../config';
import { FileOutbox } from '../../messaging/file-outbox';

/** One push to one device token. */
export interface PushMessage {
  token: string;
  title: string;
  body: string;
  /** String values only (FCM's `data`): type, entity_type, entity_id, notification_id, app, platform. */
  data: Record<string, string>;
}

/**
 * What a provider answered: sent; `unregistered` (the token is gone for good: FCM's UNREGISTERED /
 * 404, or SENDER_ID_MISMATCH: the token is disabled); or another failure (the token is kept).
 */
export type PushOutcome = { status: 'sent' } | { status: 'unregistered'; error: string } | { status: 'failed'; error: string };

/** Something that delivers pushes (the file outbox, FCM). */
export interface PushTransport {
  send(message: PushMessage): Promise<PushOutcome>;
}

/** PUSH_TRANSPORT=file (the default): each push is a JSON file of OUTBOX_DIR, channel `push`, `to` the token. */
export class FilePushTransport implements PushTransport {
  private readonly outbox: FileOutbox;

  constructor(dir: string) {
    this.outbox = new FileOutbox(dir);
  }

  async send(message: PushMessage): Promise<PushOutcome> {
    await this.outbox.send({ channel: 'push', to: message.token, subject: message.title, text: message.body, data: message.data });
    return { status: 'sent' };
  }
}

/** A Google service account key file, as the Firebase console downloads it. */
interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri?: string;
}

/** How long FCM and the token endpoint may take to answer. */
const FCM_TIMEOUT_MS = 10_000;
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** FCM error codes that mean the token will never work again. */
const GONE_CODES = new Set(['UNREGISTERED', 'SENDER_ID_MISMATCH']);

/**
 * PUSH_TRANSPORT=fcm: FCM HTTP v1 (`POST {FCM_API_URL}/projects/{FCM_PROJECT_ID}/messages:send`),
 * authorised by an OAuth access token for the service account of FCM_CREDENTIALS_FILE (a signed
 * JWT exchanged at its token_uri, kept until a minute before it expires).
 */
export class FcmTransport implements PushTransport {
  private accessToken?: { value: string; expiresAt: number };

  constructor(
    private readonly options: { projectId: string; credentialsFile: string; apiUrl: string },
    private readonly fetchImpl: typeof fetch,
  ) {}

  async send(message: PushMessage): Promise<PushOutcome> {
    const response = await this.fetchImpl(`${this.options.apiUrl}/projects/${encodeURIComponent(this.options.projectId)}/messages:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await this.token()}` },
      body: JSON.stringify({ message: { token: message.token, notification: { title: message.title, body: message.body }, data: message.data } }),
      signal: AbortSignal.timeout(FCM_TIMEOUT_MS),
    });
    if (response.ok) return { status: 'sent' };
    const text = await response.text().catch(() => '');
    const code = errorCodeOf(text);
    const error = `FCM answered ${response.status}${code ? ` ${code}` : ''}`;
    if (response.status === 401) this.accessToken = undefined;
    if (response.status === 404 || (code && GONE_CODES.has(code))) return { status: 'unregistered', error };
    return { status: 'failed', error };
  }

  private async token(): Promise<string> {
    if (this.accessToken && this.accessToken.expiresAt > Date.now() + 60_000) return this.accessToken.value;
    const account = JSON.parse(readFileSync(this.options.credentialsFile, 'utf8')) as ServiceAccount;
    const tokenUri = account.token_uri ?? 'https://oauth2.googleapis.com/token';
    const assertion = jwt.sign({ scope: FCM_SCOPE }, account.private_key, { algorithm: 'RS256', issuer: account.client_email, audience: tokenUri, expiresIn: 3600 });
    const response = await this.fetchImpl(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      signal: AbortSignal.timeout(FCM_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`FCM token endpoint answered ${response.status}`);
    const answer = (await response.json()) as { access_token: string; expires_in?: number };
    this.accessToken = { value: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 };
    return answer.access_token;
  }
}

/** FCM v1's error code (`error.details[].errorCode`, else `error.status`), if the body has one. */
function errorCodeOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { status?: string; details?: Array<{ errorCode?: string }> } };
    return body.error?.details?.find((d) => d.errorCode)?.errorCode ?? body.error?.status;
  } catch {
    return undefined;
  }
}

/** PUSH_TRANSPORT: the file outbox by default, FCM HTTP v1 when configured. */
export function createPushTransport(config: Config, fetchImpl: typeof fetch): PushTransport {
  if (config.push.transport === 'fcm') {
    return new FcmTransport({ projectId: config.push.fcmProjectId!, credentialsFile: config.push.fcmCredentialsFile!, apiUrl: config.push.fcmApiUrl }, fetchImpl);
  }
  return new FilePushTransport(config.outboxDir);
}
