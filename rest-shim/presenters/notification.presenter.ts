import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { DeviceToken } from '../../src/domains/notifications/device-token.entity';
import type { NotificationPreferences } from '../../src/domains/notifications/notification.service';
import type { Notification } from '../../src/domains/notifications/notification.entity';
import { NOTIFICATION_TYPE_NAMES } from '../../src/domains/notifications/notification-types';
import { Nullable, Timestamp } from '../schemas';

/** One notification of the caller's inbox. */
export const NotificationBody = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: NOTIFICATION_TYPE_NAMES.join(', ') }),
  title: Type.String(),
  body: Type.String(),
  entity_type: Nullable(Type.String({ description: 'The kind of record it links to: order, payment, approval, …' })),
  entity_id: Nullable(Type.Integer({ description: 'The id of the record it links to' })),
  read: Type.Boolean(),
  read_at: Nullable(Timestamp),
  created_at: Timestamp,
});

export const presentNotification = (n: Row<Notification>) => ({
  id: n.id,
  type: n.type,
  title: n.title,
  body: n.body,
  entity_type: n.entityType,
  entity_id: n.entityId,
  read: n.readAt !== null,
  read_at: n.readAt,
  created_at: n.createdAt,
});

/** A registered device token. */
export const DeviceTokenBody = Type.Object({
  id: Type.Integer(),
  token: Type.String(),
  app: Type.String({ description: 'portal, driver or field' }),
  platform: Type.String({ description: 'android, ios or web' }),
  last_seen_at: Timestamp,
  disabled_at: Nullable({ ...Timestamp, description: 'When the push provider refused it for good; null while live' }),
  created_at: Timestamp,
});

export const presentDeviceToken = (d: Row<DeviceToken>) => ({
  id: d.id,
  token: d.token,
  app: d.app,
  platform: d.platform,
  last_seen_at: d.lastSeenAt,
  disabled_at: d.disabledAt,
  created_at: d.createdAt,
});

/** The caller's notification preferences. */
export const PreferencesBody = Type.Object({
  quiet_hours_start: Nullable(Type.String({ description: 'HH:MM, the workspace’s time zone; null: no quiet hours' })),
  quiet_hours_end: Nullable(Type.String({ description: 'HH:MM (exclusive); before the start: the quiet hours span midnight' })),
});

export const presentPreferences = (p: NotificationPreferences) => ({ quiet_hours_start: p.quietHoursStart, quiet_hours_end: p.quietHoursEnd });
