import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { enqueue } from '../../../jobs/enqueue';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { ActiveStatus } from '../../db/active-status';
import * as rules from '../../validation/rules';
import { cancelledReason, envelope, type DeliveryEngine, type DeliveryDeps } from './delivery-engine';
import { DELIVERY_JOB_KEY_PREFIX, deliveryJobKey } from './delivery-job';
import { isDelivered } from './retry-policy';
import { parseWebhookUrl, UnsafeTargetError, vetTarget } from './target-guard';
import { WebhookDelivery, type DeliveryStatus } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { DEFAULT_EVENTS, newEventId, normalizeEvents, TEST_EVENT } from './webhook-events';
import { newWebhookSecret } from './webhook-secret';

export interface CreateWebhookInput {
  name: string;
  url: string;
  events?: string | string[] | null;
}

export interface UpdateWebhookInput {
  name?: string | null;
  url?: string | null;
  events?: string | string[] | null;
  status?: number | null;
}

export interface DeliveryFilter {
  webhookId?: number | null;
  status?: string | null;
  limit?: number | null;
}

/** What the test endpoint reports; a failed delivery is reported here, not as an error status. */
export interface TestDeliveryResult {
  delivered: boolean;
  eventId: string;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
}

/** An endpoint's row and its signing secret, which only its creation and a rotation show. */
export interface WebhookWithSecret {
  endpoint: Row<WebhookEndpoint>;
  secret: string;
}

/**
 * Endpoints a workspace may have: every event costs one delivery per endpoint, and workers are
 * shared by all workspaces.
 */
export const MAX_ENDPOINTS = 20;

/** Longest webhook URL kept (the column's size). */
const MAX_URL_LENGTH = 2048;

/** Delivery log page size: default and bounds. */
export const DELIVERY_LIMIT = { default: 50, min: 1, max: 200 };

/**
 * Webhook endpoints of the caller's workspace and their delivery log, for administrators signed
 * in with a session. Endpoint changes take effect on deliveries at once: pausing or deleting
 * cancels what is queued, a new secret signs the very next attempt.
 */
export class WebhookService {
  constructor(
    private readonly deps: DeliveryDeps,
    private readonly engine: DeliveryEngine,
    /** The events the domains emit, in their order: what an endpoint may subscribe to. */
    readonly supportedEvents: readonly string[],
  ) {}

  /** Endpoints (not deleted), newest first. */
  async list(ctx: RequestContext): Promise<Array<Row<WebhookEndpoint>>> {
    ctx.requireAdminSession();
    return findRows(ctx.em, WebhookEndpoint, { deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Validates everything (the target resolves to public addresses) before saving. Returns the secret once. */
  async create(ctx: RequestContext, input: CreateWebhookInput): Promise<WebhookWithSecret> {
    ctx.requireAdminSession();
    const name = rules.requiredText('name', input.name, 100);
    const url = await this.checkedUrl(input.url);
    const events = normalizeEvents('events', input.events ?? DEFAULT_EVENTS, this.supportedEvents);
    const secret = newWebhookSecret();
    const endpoint = await ctx.em.transactional(async (tx) => {
      // One creation at a time per workspace, so parallel requests cannot pass the cap together.
      await tx.execute('select id from organization where id = ? for update', [ctx.organizationId]);
      if ((await tx.count(WebhookEndpoint, { deletedAt: null })) >= MAX_ENDPOINTS) {
        throw new ValidationError(null, `A workspace may have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
      }
      return tx.create(WebhookEndpoint, {
        organizationId: ctx.organizationId,
        name,
        url,
        events,
        secretCiphertext: this.deps.secrets.seal(secret),
      });
    });
    return { endpoint: rowOf(ctx.em, WebhookEndpoint, endpoint), secret };
  }

  /** Omitted fields stay. Pausing cancels queued deliveries; resuming delivers new events only. */
  async update(ctx: RequestContext, id: number, input: UpdateWebhookInput): Promise<Row<WebhookEndpoint>> {
    ctx.requireAdminSession();
    const endpoint = await this.find(ctx, id);
    const changes: Partial<WebhookEndpoint> = {};
    if (input.name != null) changes.name = rules.requiredText('name', input.name, 100);
    if (input.url != null) changes.url = await this.checkedUrl(input.url);
    if (input.events != null) changes.events = normalizeEvents('events', input.events, this.supportedEvents);
    if (input.status != null) changes.status = rules.oneOf('status', input.status, [ActiveStatus.ACTIVE, ActiveStatus.INACTIVE]);
    await ctx.em.transactional(async (tx) => {
      tx.assign(endpoint, changes);
      await tx.flush();
      if (endpoint.status === ActiveStatus.INACTIVE) await this.cancelQueued(tx, endpoint, cancelledReason(false));
    });
    return rowOf(ctx.em, WebhookEndpoint, endpoint);
  }

  /** Stops deliveries (queued ones are cancelled) and discards the secret; the delivery log stays. */
  async remove(ctx: RequestContext, id: number): Promise<void> {
    ctx.requireAdminSession();
    const endpoint = await this.find(ctx, id);
    await ctx.em.transactional(async (tx) => {
      tx.assign(endpoint, { deletedAt: new Date(), secretCiphertext: null, status: ActiveStatus.INACTIVE });
      await tx.flush();
      await this.cancelQueued(tx, endpoint, cancelledReason(true));
    });
  }

  /** A new secret, returned once; it signs every later attempt at once (no grace period). */
  async rotateSecret(ctx: RequestContext, id: number): Promise<WebhookWithSecret> {
    ctx.requireAdminSession();
    const endpoint = await this.find(ctx, id);
    const secret = newWebhookSecret();
    endpoint.secretCiphertext = this.deps.secrets.seal(secret);
    await ctx.em.flush();
    return { endpoint: rowOf(ctx.em, WebhookEndpoint, endpoint), secret };
  }

  /**
   * Sends a `webhook.test` event now, once, whatever the subscription or status, and reports the
   * outcome. The attempt is kept in the delivery log (one attempt, never retried).
   */
  async test(ctx: RequestContext, id: number): Promise<TestDeliveryResult> {
    ctx.requireAdminSession();
    const endpoint = await this.find(ctx, id);
    const secret = this.deps.secrets.open(endpoint.secretCiphertext!);
    const eventId = newEventId();
    const eventAt = new Date();
    const data = { webhook_id: endpoint.id, message: 'This is a test event; no action is needed.' };
    const outcome = await this.engine.attempt({
      url: endpoint.url,
      secret,
      body: envelope(eventId, TEST_EVENT, eventAt, ctx.organizationId, data),
      eventId,
      eventType: TEST_EVENT,
      attempt: 1,
    });
    const delivered = isDelivered(outcome.status);
    // Logged once the attempt is over, so no record is ever left half-done.
    ctx.em.create(WebhookDelivery, {
      organizationId: ctx.organizationId,
      webhookId: endpoint.id,
      eventId,
      eventType: TEST_EVENT,
      eventData: data,
      eventAt,
      status: delivered ? 'sent' : 'dead',
      attempts: 1,
      maxAttempts: 1,
      lastAttemptAt: eventAt,
      sentAt: delivered ? new Date() : null,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      durationMs: outcome.durationMs,
      lastError: outcome.error,
    });
    await ctx.em.flush();
    return { delivered, eventId, responseStatus: outcome.status, durationMs: outcome.durationMs, error: outcome.error };
  }

  /** The delivery log, newest first, optionally of one endpoint and one status. */
  async deliveries(ctx: RequestContext, filter: DeliveryFilter): Promise<Array<Row<WebhookDelivery>>> {
    ctx.requireAdminSession();
    const limit = filter.limit ?? DELIVERY_LIMIT.default;
    if (!Number.isInteger(limit) || limit < DELIVERY_LIMIT.min || limit > DELIVERY_LIMIT.max) {
      throw new ValidationError('limit', `must be a whole number from ${DELIVERY_LIMIT.min} to ${DELIVERY_LIMIT.max}`);
    }
    if (filter.status != null) rules.oneOf('status', filter.status as DeliveryStatus, ['pending', 'sending', 'sent', 'dead']);
    return findRows(
      ctx.em,
      WebhookDelivery,
      {
        ...(filter.webhookId != null ? { webhookId: filter.webhookId } : {}),
        ...(filter.status != null ? { status: filter.status as DeliveryStatus } : {}),
      },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
    );
  }

  /**
   * Queues a new delivery of a dead delivery's event (same event id, attempts from 1) to its
   * endpoint, which must still exist and be active.
   */
  async redeliver(ctx: RequestContext, deliveryId: number): Promise<Row<WebhookDelivery>> {
    ctx.requireAdminSession();
    const dead = await ctx.em.findOne(WebhookDelivery, { id: deliveryId });
    if (!dead) throw new NotFoundError('Webhook delivery', deliveryId);
    if (dead.status !== 'dead') throw new ConflictError(`Only dead deliveries can be redelivered; this one is ${dead.status}`);
    if (dead.eventType === TEST_EVENT) throw new ConflictError('Test events are never redelivered; send a new test');
    const endpoint = await ctx.em.findOne(WebhookEndpoint, { id: dead.webhookId, deletedAt: null });
    if (!endpoint) throw new ConflictError('The endpoint of this delivery was deleted');
    if (endpoint.status !== ActiveStatus.ACTIVE) throw new ConflictError('The endpoint is paused; resume it first');
    return ctx.em.transactional(async (tx) => {
      // One redelivery at a time per dead delivery, and none while a copy is still on its way.
      const t = tenantSql(ctx.organizationId, 'd');
      await executeSql(tx, sql`select d.id from webhook_delivery d where ${t.owns()} and d.id = ${dead.id} for update`);
      const live = await tx.count(WebhookDelivery, { webhookId: dead.webhookId, eventId: dead.eventId, status: { $in: ['pending', 'sending'] } });
      if (live > 0) throw new ConflictError('This event is already being redelivered');
      const again = tx.create(WebhookDelivery, {
        organizationId: ctx.organizationId,
        webhookId: dead.webhookId,
        eventId: dead.eventId,
        eventType: dead.eventType,
        eventData: dead.eventData,
        eventAt: dead.eventAt,
        status: 'pending',
        maxAttempts: this.deps.settings.maxAttempts,
      });
      await tx.flush();
      await enqueue(tx, 'deliver_webhook', { organizationId: ctx.organizationId, deliveryId: again.id }, { jobKey: deliveryJobKey(again.id) });
      return rowOf(tx, WebhookDelivery, again);
    });
  }

  private async find(ctx: RequestContext, id: number): Promise<WebhookEndpoint> {
    const endpoint = await ctx.em.findOne(WebhookEndpoint, { id, deletedAt: null });
    if (!endpoint) throw new NotFoundError('Webhook', id);
    return endpoint;
  }

  /** Syntax, then the public-address rule (400 naming `url`). */
  private async checkedUrl(value: string): Promise<string> {
    const url = parseWebhookUrl('url', rules.requiredText('url', value, MAX_URL_LENGTH));
    try {
      await vetTarget(url, this.deps.resolve, this.deps.settings.allowedPrivateHosts);
    } catch (err) {
      if (err instanceof UnsafeTargetError) throw new ValidationError('url', `is refused: ${err.message}`);
      throw err;
    }
    const normalized = url.toString(); // may grow: percent-encoding, a trailing slash
    if (normalized.length > MAX_URL_LENGTH) throw new ValidationError('url', `must be at most ${MAX_URL_LENGTH} characters once normalised`);
    return normalized;
  }

  /** Queued (pending) deliveries of the endpoint end as dead with `reason`, and their jobs go. */
  private async cancelQueued(tx: EntityManager, endpoint: WebhookEndpoint, reason: string): Promise<void> {
    await tx.execute(
      `with cancelled as (
         update webhook_delivery set status = 'dead', next_attempt_at = null, last_error = ?, updated_at = now()
          where organization_id = ? and webhook_id = ? and status = 'pending'
         returning id)
       select graphile_worker.remove_job(?::text || id) from cancelled`,
      [reason, endpoint.organizationId, endpoint.id, DELIVERY_JOB_KEY_PREFIX],
    );
  }
}
