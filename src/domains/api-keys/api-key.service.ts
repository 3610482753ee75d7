import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { scopeToOrganization } from '../../db/tenant-filter';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import type { Messenger } from '../../messaging/messenger';
import { ActiveStatus } from '../../db/active-status';
import type { BackgroundTasks } from '../../concurrency/background-tasks';
import * as rules from '../../validation/rules';
import { User, UserType } from '../users/user.entity';
import { Organization } from '../workspace/organization.entity';
import { hashApiKey, type ApiKeyAuthenticator } from './api-key-authenticator';
import type { KeyScopePolicy } from './api-key-scopes';
import { ApiKey, ApiKeyStatus } from './api-key.entity';

/** Active (unrevoked, unexpired) keys a workspace may hold. */
export const MAX_ACTIVE_KEYS = 50;
/** Bounds of `expiresInDays`. */
export const EXPIRY_DAYS = { min: 1, max: 3650 };
/** Random bytes in a key: 24 bytes are 48 hex characters after `df_`. */
const KEY_BYTES = 24;
/** `df_` and the first 8 hex characters: enough to tell keys apart, useless to guess the rest. */
const PREFIX_LENGTH = 11;

/** A new key: what the caller is shown once, and what is stored of it. */
export function newApiKey(): { key: string; keyHash: string; keyPrefix: string } {
  const key = `df_${randomBytes(KEY_BYTES).toString('hex')}`;
  return { key, keyHash: hashApiKey(key), keyPrefix: key.slice(0, PREFIX_LENGTH) };
}

export interface CreateApiKeyInput {
  name: string;
  scopes?: string | null;
  expiresInDays?: number | null;
}

/** A new key: its row and the only copy of its secret. */
export interface CreatedApiKey {
  apiKey: Row<ApiKey>;
  key: string;
}

/**
 * API keys of the caller's workspace, for administrators signed in with a session (a key can
 * neither see nor make keys). Creation and revocation are e-mailed to every administrator.
 */
export class ApiKeyService {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly scopes: KeyScopePolicy,
    private readonly messenger: Messenger,
    private readonly background: BackgroundTasks,
  ) {}

  /** Every key, revoked ones included (the audit record), newest first. */
  async list(ctx: RequestContext): Promise<Array<Row<ApiKey>>> {
    ctx.requireAdminSession();
    return findRows(ctx.em, ApiKey, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Validates everything first; beyond MAX_ACTIVE_KEYS live keys the answer is 400. */
  async create(ctx: RequestContext, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const admin = ctx.requireAdminSession();
    const name = rules.requiredText('name', input.name, 100);
    const scopes = this.scopes.normalize('scopes', input.scopes);
    const expiresAt = input.expiresInDays == null ? null : expiryAfter(input.expiresInDays);
    const { key, keyHash, keyPrefix } = newApiKey();
    const apiKey = await ctx.em.transactional(async (tx) => {
      // One creation at a time per workspace, so parallel requests cannot pass the cap together.
      await tx.execute('select id from organization where id = ? for update', [ctx.organizationId]);
      const live = await tx.count(ApiKey, { status: ApiKeyStatus.ACTIVE, $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date() } }] });
      if (live >= MAX_ACTIVE_KEYS) {
        throw new ValidationError(null, `A workspace may hold at most ${MAX_ACTIVE_KEYS} active API keys; revoke one first`);
      }
      return tx.create(ApiKey, {
        organizationId: ctx.organizationId,
        name,
        keyHash,
        keyPrefix,
        scopes,
        expiresAt,
        createdBy: tx.getReference(User, admin.userId),
      });
    });
    this.notifyAdmins(ctx, apiKey, 'created', admin.userId);
    return { apiKey: rowOf(ctx.em, ApiKey, apiKey), key };
  }

  /** Revokes a key (status 0, record kept); it stops working at once. Revoking it again changes nothing. */
  async revoke(ctx: RequestContext, id: number): Promise<{ apiKey: Row<ApiKey>; changed: boolean }> {
    const admin = ctx.requireAdminSession();
    const apiKey = await ctx.em.findOne(ApiKey, { id });
    if (!apiKey) throw new NotFoundError('API key', id);
    if (apiKey.status === ApiKeyStatus.REVOKED) return { apiKey: rowOf(ctx.em, ApiKey, apiKey), changed: false };
    apiKey.status = ApiKeyStatus.REVOKED;
    apiKey.revokedAt = new Date();
    apiKey.revokedBy = ctx.em.getReference(User, admin.userId);
    await ctx.em.flush();
    this.authenticator.forget(apiKey.keyHash);
    this.notifyAdmins(ctx, apiKey, 'revoked', admin.userId);
    return { apiKey: rowOf(ctx.em, ApiKey, apiKey), changed: true };
  }

  private notifyAdmins(ctx: RequestContext, apiKey: ApiKey, what: 'created' | 'revoked', actorId: number): void {
    const organizationId = ctx.organizationId;
    this.background.run(`api key ${what} e-mail`, async () => {
      const em = ctx.em.fork();
      scopeToOrganization(em, organizationId);
      await this.sendNotice(em, organizationId, apiKey, what, actorId);
    });
  }

  private async sendNotice(em: EntityManager, organizationId: number, apiKey: ApiKey, what: 'created' | 'revoked', actorId: number): Promise<void> {
    const [workspace, actor, admins] = await Promise.all([
      em.findOneOrFail(Organization, { id: organizationId }),
      em.findOneOrFail(User, { id: actorId }),
      em.find(User, { userType: UserType.ADMIN, status: ActiveStatus.ACTIVE, officialEmail: { $ne: null } }),
    ]);
    const who = `${actor.firstName} ${actor.lastName}`.trim() + (actor.officialEmail ? ` <${actor.officialEmail}>` : '');
    const subject = `API key ${what} in ${workspace.displayName}: ${apiKey.name}`;
    const text = [
      `An API key was ${what} in the workspace ${workspace.displayName}.`,
      '',
      `Name:    ${apiKey.name}`,
      `Prefix:  ${apiKey.keyPrefix}`,
      `Scopes:  ${apiKey.scopes}`,
      `Expires: ${apiKey.expiresAt ? apiKey.expiresAt.toISOString() : 'never'}`,
      `By:      ${who}`,
      `At:      ${(what === 'created' ? apiKey.createdAt : apiKey.revokedAt!).toISOString()}`,
      '',
      'If you do not recognise this change, revoke the key and review who administers the workspace.',
      '',
    ].join('\n');
    await Promise.all(admins.map((admin) => this.messenger.email(admin.officialEmail!, subject, text)));
  }
}

/** The expiry `days` whole days from now; 400 unless an integer in EXPIRY_DAYS. */
function expiryAfter(days: number): Date {
  if (!Number.isInteger(days) || days < EXPIRY_DAYS.min || days > EXPIRY_DAYS.max) {
    throw new ValidationError('expiresInDays', `must be a whole number of days from ${EXPIRY_DAYS.min} to ${EXPIRY_DAYS.max}`);
  }
  return new Date(Date.now() + days * 86_400_000);
}
