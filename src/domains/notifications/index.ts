import { defineDomain } from '../domain-module';
import { DeviceToken } from './device-token.entity';
import { NotificationPreference } from './notification-preference.entity';
import { Notification } from './notification.entity';
import { NotificationResolver } from './notification.resolver';
import { NotificationService } from './notification.service';

export { notify, type NotificationContent } from './notify';
export { NOTIFICATION_TYPES, type NotificationType } from './notification-types';

declare module '../domain-module' {
  interface Services {
    notifications: NotificationService;
  }
}

/**
 * Users' inboxes, their device tokens and quiet hours, and the pushes (send_push jobs). Other
 * domains write inbox rows with `notify(tx, organizationId, userIds, content)` in their transactions.
 */
export const notificationsDomain = defineDomain({
  name: 'notifications',
  entities: [Notification, DeviceToken, NotificationPreference],
  services: () => ({ notifications: new NotificationService() }),
  resolvers: [NotificationResolver],
  // Its routes are under /portal, a named group (src/domains/index.ts) that refuses API keys.
});
