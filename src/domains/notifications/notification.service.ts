import type { RequestContext } from '../../context/request-context';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import { DeviceToken } from './device-token.entity';
import { NotificationPreference } from './notification-preference.entity';
import { DEVICE_APPS, DEVICE_PLATFORMS, MAX_TOKEN, type DeviceApp, type DevicePlatform } from './notification-types';
import { Notification } from './notification.entity';

export const NOTIFICATION_SORT = sortable<keyof Notification & string>({
  name: 'Notification', // GraphQL: NotificationSortField, NotificationSort
  fields: { created_at: 'createdAt', read_at: 'readAt', id: 'id' },
  default: '-created_at',
});
const NOTIFICATION_LIST = entityList({ entity: Notification, sort: NOTIFICATION_SORT });

/** Filters of the inbox. */
export interface NotificationFilter {
  /** true: unread only; false: read only; unset: both. */
  unread?: boolean | null;
}

/** A page of the inbox, with the user's unread count (whatever the filter). */
export interface InboxPage extends Paginated<Row<Notification>> {
  unreadCount: number;
}

/** A device token to register. */
export interface DeviceTokenInput {
  token: string;
  app: string;
  platform: string;
}

/** A user's preferences: quiet hours as HH:MM of the workspace's day, or null when none are set. */
export interface NotificationPreferences {
  quietHoursStart: string | null;
  quietHoursEnd: string | null;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

const minuteOf = (field: string, value: string): number => {
  const m = HH_MM.exec(value.trim());
  if (!m) throw new ValidationError(field, 'must be a time of day HH:MM (00:00 to 23:59)');
  return Number(m[1]) * 60 + Number(m[2]);
};
const hhmm = (minute: number | null) => (minute === null ? null : `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`);

/**
 * Each signed-in user's own inbox, device tokens and quiet hours. Session only: API keys are refused
 * (403), and another user's notification is not found (404). Inbox rows are written by `notify`.
 */
export class NotificationService {
  async list(ctx: RequestContext, filter: NotificationFilter, pageRequest: PageRequest): Promise<InboxPage> {
    const { userId } = ctx.requireSession();
    const where = filter.unread == null ? { user: userId } : { user: userId, readAt: filter.unread ? null : { $ne: null } };
    const [page, unreadCount] = await Promise.all([readPage(ctx.em, NOTIFICATION_LIST, where, pageRequest), this.unreadCount(ctx)]);
    return { ...page, unreadCount };
  }

  /** How many of the caller's notifications are unread. */
  async unreadCount(ctx: RequestContext): Promise<number> {
    const { userId } = ctx.requireSession();
    return ctx.em.count(Notification, { user: userId, readAt: null });
  }

  /** Marks one of the caller's notifications read (kept as first read when already read). */
  async markRead(ctx: RequestContext, id: number): Promise<Row<Notification>> {
    const { userId } = ctx.requireSession();
    const notification = await ctx.em.findOne(Notification, { id, user: userId });
    if (!notification) throw new NotFoundError('Notification', id);
    if (notification.readAt === null) {
      notification.readAt = new Date();
      await ctx.em.flush();
    }
    return rowOf(ctx.em, Notification, notification);
  }

  /** Marks every unread notification of the caller read; answers how many changed. */
  async markAllRead(ctx: RequestContext): Promise<number> {
    const { userId, organizationId } = ctx.requireSession();
    const t = tenantSql(organizationId, 'n');
    const rows = await executeSql<{ id: number }>(
      ctx.em,
      sql`update notification n set read_at = now(), updated_at = now() where ${t.owns()} and n.user_id = ${userId} and n.read_at is null returning n.id`,
    );
    return rows.length;
  }

  /**
   * Registers a device token for the caller (idempotent: the same token is the same row, its app,
   * platform and last_seen_at refreshed, live again if it was disabled; a token another user of
   * the workspace registered moves to the caller). `created` is false when the row existed.
   */
  async registerToken(ctx: RequestContext, input: DeviceTokenInput): Promise<{ token: Row<DeviceToken>; created: boolean }> {
    const { userId, organizationId } = ctx.requireSession();
    const token = input.token?.trim() ?? '';
    if (token === '') throw new ValidationError('token', 'is required');
    if (token.length > MAX_TOKEN) throw new ValidationError('token', `must be at most ${MAX_TOKEN} characters`);
    if (!DEVICE_APPS.includes(input.app as DeviceApp)) throw new ValidationError('app', `must be one of ${DEVICE_APPS.join(', ')}`);
    if (!DEVICE_PLATFORMS.includes(input.platform as DevicePlatform)) throw new ValidationError('platform', `must be one of ${DEVICE_PLATFORMS.join(', ')}`);
    const [row] = await executeSql<{ id: number; inserted: boolean }>(
      ctx.em,
      sql`insert into device_token (organization_id, user_id, app, platform, token, last_seen_at)
          values (${organizationId}, ${userId}, ${input.app}, ${input.platform}, ${token}, now())
          on conflict (organization_id, token) do update
             set user_id = excluded.user_id, app = excluded.app, platform = excluded.platform, last_seen_at = now(),
                 disabled_at = null, last_error = null, updated_at = now()
          returning id, (xmax = 0) as inserted`,
    );
    const [saved] = await findRows(ctx.em, DeviceToken, { id: row.id });
    return { token: saved, created: row.inserted };
  }

  /** Removes one of the caller's device tokens by its value (404 when the caller has no such token). */
  async unregisterToken(ctx: RequestContext, token: string): Promise<void> {
    const { userId, organizationId } = ctx.requireSession();
    const value = token?.trim() ?? '';
    if (value === '') throw new ValidationError('token', 'is required');
    const t = tenantSql(organizationId, 'd');
    const rows = await executeSql<{ id: number }>(ctx.em, sql`delete from device_token d where ${t.owns()} and d.user_id = ${userId} and d.token = ${value} returning d.id`);
    if (rows.length === 0) throw new NotFoundError('Device token', value.slice(0, 40));
  }

  /**
   * At logout, before the session ends: removes the caller's tokens of `app` (all of the caller's
   * tokens when no app is named: a user has one session at a time). Answers how many went.
   */
  async unregisterAtLogout(ctx: RequestContext, app?: string | null): Promise<number> {
    const { userId, organizationId } = ctx.requireSession();
    if (app != null && !DEVICE_APPS.includes(app as DeviceApp)) throw new ValidationError('app', `must be one of ${DEVICE_APPS.join(', ')}`);
    const t = tenantSql(organizationId, 'd');
    const rows = await executeSql<{ id: number }>(
      ctx.em,
      sql`delete from device_token d where ${t.owns()} and d.user_id = ${userId} and (${app ?? null}::text is null or d.app = ${app ?? null}) returning d.id`,
    );
    return rows.length;
  }

  async preferences(ctx: RequestContext): Promise<NotificationPreferences> {
    const { userId } = ctx.requireSession();
    const found = await ctx.em.findOne(NotificationPreference, { user: userId });
    return { quietHoursStart: hhmm(found?.quietStartMinute ?? null), quietHoursEnd: hhmm(found?.quietEndMinute ?? null) };
  }

  /** Sets (both times) or clears (both null) the caller's quiet hours. */
  async setQuietHours(ctx: RequestContext, start: string | null | undefined, end: string | null | undefined): Promise<NotificationPreferences> {
    const { userId, organizationId } = ctx.requireSession();
    if ((start == null) !== (end == null)) throw new ValidationError(start == null ? 'start' : 'end', 'must be given with the other time (or both null to clear)');
    const startMinute = start == null ? null : minuteOf('start', start);
    const endMinute = end == null ? null : minuteOf('end', end);
    if (startMinute !== null && startMinute === endMinute) throw new ValidationError('end', 'must differ from start');
    await executeSql(
      ctx.em,
      sql`insert into notification_preference (organization_id, user_id, quiet_start_minute, quiet_end_minute)
          values (${organizationId}, ${userId}, ${startMinute}::smallint, ${endMinute}::smallint)
          on conflict (organization_id, user_id) do update
             set quiet_start_minute = excluded.quiet_start_minute, quiet_end_minute = excluded.quiet_end_minute, updated_at = now()`,
    );
    return { quietHoursStart: hhmm(startMinute), quietHoursEnd: hhmm(endMinute) };
  }
}
