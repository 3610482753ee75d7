import type { EntityManager } from '@mikro-orm/postgresql';
import { addJobFor } from '../../../jobs/enqueue';
import { executeSql, raw, sql, tenantSql } from '../../db/tenant-sql';
import { MAX_BODY, MAX_ENTITY_TYPE, MAX_TITLE, type NotificationType } from './notification-types';

/** What one notification says, and the record it links to. */
export interface NotificationContent {
  type: NotificationType;
  title: string;
  body: string;
  /** The record it opens: `{type: 'order', id: 12}`. */
  entity?: { type: string; id: number } | null;
}

/** Job keys of pushes are this and the notification id. */
export const PUSH_JOB_KEY_PREFIX = 'push-notification-';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Writes one inbox row per user of `userIds` (users of the workspace; others are skipped) and, for
 * each user with a live device token, queues its send_push job, all in the caller's transaction
 * (one statement): a rolled-back change notifies no one. A user inside their quiet hours (the
 * workspace's time zone) gets the job at the end of them; the inbox row is there at once.
 * Call it from any domain's transaction, after the change is flushed.
 */
export async function notify(tx: EntityManager, organizationId: number, userIds: ReadonlyArray<number | null | undefined>, content: NotificationContent): Promise<void> {
  const ids = [...new Set(userIds.filter((id): id is number => Number.isSafeInteger(id) && (id as number) > 0))];
  if (ids.length === 0) return;
  const title = clip(content.title.trim(), MAX_TITLE);
  const body = clip(content.body.trim(), MAX_BODY);
  const entityType = content.entity ? clip(content.entity.type, MAX_ENTITY_TYPE) : null;
  const entityId = content.entity ? content.entity.id : null;
  await executeSql(
    tx,
    sql`with inserted as (
          insert into notification (organization_id, user_id, type, title, body, entity_type, entity_id)
          select u.organization_id, u.id, ${content.type}, ${title}, ${body}, ${entityType}, ${entityId}::int
            from app_user u
           where ${tenantSql(organizationId, 'u').owns()} and u.id = any(${`{${ids.join(',')}}`}::int[])
          returning id, organization_id, user_id),
        timed as (
          select i.id, i.organization_id, ${releaseAt('p', 'c')} as run_at
            from inserted i
            join workspace_config c on c.organization_id = i.organization_id
            left join notification_preference p on p.organization_id = i.organization_id and p.user_id = i.user_id
           where exists (select 1 from device_token d
                          where d.organization_id = i.organization_id and d.user_id = i.user_id and d.disabled_at is null))
        select ${addJobFor(
          'send_push',
          { organizationId: raw('t.organization_id'), notificationId: raw('t.id') },
          { runAt: raw('t.run_at'), jobKey: sql`${PUSH_JOB_KEY_PREFIX}::text || t.id` },
        )} from timed t`,
  );
}

/**
 * When a push may go: now, or the end of the user's quiet hours when now is inside them (`p`: the
 * user's notification_preference row, possibly missing; `c`: the workspace_config row). Quiet
 * hours are minutes of the workspace's local day, start inclusive, end exclusive; start > end
 * spans midnight (22:00–06:00).
 */
function releaseAt(p: string, c: string) {
  const local = `(now() at time zone ${c}.time_zone)`;
  const minute = `(extract(hour from ${local}) * 60 + extract(minute from ${local}))::int`;
  return raw(`case
      when ${p}.quiet_start_minute is not null and (case when ${p}.quiet_start_minute < ${p}.quiet_end_minute
             then ${minute} >= ${p}.quiet_start_minute and ${minute} < ${p}.quiet_end_minute
             else ${minute} >= ${p}.quiet_start_minute or ${minute} < ${p}.quiet_end_minute end)
      then (date_trunc('day', ${local}) + make_interval(mins => ${p}.quiet_end_minute)
            + case when ${p}.quiet_start_minute > ${p}.quiet_end_minute and ${minute} >= ${p}.quiet_start_minute then interval '1 day' else interval '0' end)
           at time zone ${c}.time_zone
      else now() end`);
}
