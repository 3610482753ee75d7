import { defineDomain } from '../domain-module';
import { DeviceToken } from './device-token.entity';
import { NotificationPreference } from './notification-preference.entity';
import { Notification } from './notification.entity';

/** Users' inboxes, their device tokens and quiet hours, and the pushes (send_push jobs). */
export const notificationsDomain = defineDomain({
  name: 'notifications',
  entities: [Notification, DeviceToken, NotificationPreference],
});
