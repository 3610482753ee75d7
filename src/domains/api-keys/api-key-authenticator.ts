import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKeyPrincipal } from '../../context/request-context';
import { UnauthenticatedError } from '../../errors/app-error';
import type { BackgroundTasks } from '../../concurrency/background-tasks';
import type { WorkspaceStatus } from '../workspace/organization.entity';
import { assertMachineAccessAllowed } from '../workspace/workspace-gates';
import type { KeyScopePolicy, KeyScopes } from './api-key-scopes';
import { ApiKeyStatus } from './api-key.entity';

/** How long a looked-up key (with its workspace's status) is trusted before it is read again. */
export const KEY_CACHE_TTL_MS = 5_000;
/** `last_used_at` is written at most this often per key. */
export const LAST_USED_INTERVAL_MS = 60_000;
/** Keys kept in the cache at most; the oldest go first. */
const MAX_CACHED_KEYS = 10_000;

/** `df_` and 40 to 128 lower-case hex characters; anything else is refused without a lookup. */
const KEY_SHAPE = /^df_[0-9a-f]{40,128}$/;

/** SHA-256 of a key, hex: the only form in which keys are stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

interface KeyRow {
  id: number;
  organization_id: number;
  scopes: string;
  status: ApiKeyStatus;
  expires_at: Date | null;
  last_used_at: Date | null;
  workspace_status: WorkspaceStatus;
  trial_ends_at: Date | null;
}

interface KeyRecord {
  id: number;
  organizationId: number;
  scopes: KeyScopes;
  status: ApiKeyStatus;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  workspaceStatus: WorkspaceStatus;
  trialEndsAt: Date | null;
}

/**
 * Checks X-API-Key values. A key and its workspace's status are read in one statement and then
 * cached by hash for `ttlMs`, so a busy integration costs no database round trip per request;
 * concurrent first uses of one key share one lookup. Revoking forgets the key at once in this
 * process; other instances notice within `ttlMs`. Expiry is checked on every request.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { record: Promise<KeyRecord | null>; loadedAt: number }>();
  private readonly lastUsedWrites = new Map<number, number>();

  constructor(
    private readonly background: BackgroundTasks,
    /** What a key's stored scopes allow, and where keys may go. */
    readonly scopes: KeyScopePolicy,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
  ) {}

  /**
   * The principal of a presented key. Unknown, revoked and expired keys are 401 (and only
   * those: the caller counts them as bad-key failures); a closed workspace is 403 or 402.
   */
  async authenticate(em: EntityManager, presented: string): Promise<ApiKeyPrincipal> {
    if (!KEY_SHAPE.test(presented)) throw new UnauthenticatedError('Invalid API key');
    const record = await this.lookup(em, hashApiKey(presented));
    if (!record) throw new UnauthenticatedError('Invalid API key');
    if (record.status !== ApiKeyStatus.ACTIVE) throw new UnauthenticatedError('This API key has been revoked');
    if (record.expiresAt !== null && record.expiresAt <= new Date()) throw new UnauthenticatedError('This API key has expired');
    assertMachineAccessAllowed(record.workspaceStatus, record.trialEndsAt);
    this.markUsed(em, record);
    return { kind: 'apiKey', organizationId: record.organizationId, apiKeyId: record.id, scopes: record.scopes };
  }

  /** Drops a key from this process's cache (on revocation), so its next use is refused at once. */
  forget(keyHash: string): void {
    this.cache.delete(keyHash);
  }

  private lookup(em: EntityManager, keyHash: string): Promise<KeyRecord | null> {
    const cached = this.cache.get(keyHash);
    if (cached && Date.now() - cached.loadedAt < this.ttlMs) return cached.record;
    const record = this.load(em, keyHash);
    this.remember(keyHash, record);
    return record;
  }

  private remember(keyHash: string, record: Promise<KeyRecord | null>): void {
    this.cache.delete(keyHash);
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
    const entry = { record, loadedAt: Date.now() };
    this.cache.set(keyHash, entry);
    // Unknown keys and failed reads are not kept: a key created a moment later works at once.
    const drop = () => this.cache.get(keyHash) === entry && this.cache.delete(keyHash);
    record.then((found) => found ?? drop(), drop);
  }

  private async load(em: EntityManager, keyHash: string): Promise<KeyRecord | null> {
    // Not tenant-filtered: the key is what names the tenant.
    const [row] = await em.execute<KeyRow[]>(
      `select k.id, k.organization_id, k.scopes, k.status, k.expires_at, k.last_used_at,
              o.status as workspace_status, o.trial_ends_at
         from api_key k join organization o on o.id = k.organization_id
        where k.key_hash = ?`,
      [keyHash],
    );
    if (!row) return null;
    return {
      id: row.id,
      organizationId: row.organization_id,
      scopes: this.scopes.parse(row.scopes),
      status: row.status,
      expiresAt: row.expires_at && new Date(row.expires_at),
      lastUsedAt: row.last_used_at && new Date(row.last_used_at),
      workspaceStatus: row.workspace_status,
      trialEndsAt: row.trial_ends_at && new Date(row.trial_ends_at),
    };
  }

  /** Records the use in the background, at most once a minute per key (across instances too). */
  private markUsed(em: EntityManager, record: KeyRecord): void {
    const now = Date.now();
    const lastWrite = Math.max(record.lastUsedAt?.getTime() ?? 0, this.lastUsedWrites.get(record.id) ?? 0);
    if (now - lastWrite < LAST_USED_INTERVAL_MS) return;
    this.lastUsedWrites.set(record.id, now);
    this.background.run('api key last use', async () => {
      await em.fork().execute(
        `update api_key set last_used_at = now()
          where id = ? and (last_used_at is null or last_used_at <= now() - interval '1 minute')`,
        [record.id],
      );
    });
  }
}
