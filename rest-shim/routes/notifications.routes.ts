import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DEVICE_APPS, DEVICE_PLATFORMS, MAX_TOKEN } from '../../src/domains/notifications/notification-types';
import { NOTIFICATION_SORT } from '../../src/domains/notifications/notification.service';
import { changed, created, ok } from '../envelope';
import { DeviceTokenBody, NotificationBody, PreferencesBody, presentDeviceToken, presentNotification, presentPreferences } from '../presenters/notification.presenter';
import { changedResponse, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';

const InboxQuery = listQuery({ unread: Type.Optional(Type.Boolean({ description: 'true: unread only; false: read only' })) }, { sort: NOTIFICATION_SORT });

const listed = listResponse(NotificationBody);
const InboxResponse = {
  ...listed,
  200: Type.Object({ ...listed[200].properties, unread_count: Type.Integer({ description: 'The caller’s unread notifications, whatever the filter' }) }),
};

const TokenBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: MAX_TOKEN, description: 'The push token the device’s provider (FCM) gave the app' }),
  app: Type.String({ enum: [...DEVICE_APPS] }),
  platform: Type.String({ enum: [...DEVICE_PLATFORMS] }),
});

const TokenValue = Type.Object({ token: Type.String({ minLength: 1, maxLength: MAX_TOKEN }) });

const QuietHoursBody = Type.Object({
  quiet_hours_start: Nullable(Type.String({ description: 'HH:MM; null with quiet_hours_end null clears them' })),
  quiet_hours_end: Nullable(Type.String({ description: 'HH:MM (exclusive)' })),
});

/**
 * The signed-in user's inbox and device tokens under /portal (session tokens only: API keys get
 * 403). Every user has an inbox, so staff (the field and driver apps) use the same paths.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Notifications'];

  app.get(
    '/portal/notifications',
    { schema: { tags, summary: 'The caller’s notifications, latest first, with the unread count', querystring: InboxQuery, response: InboxResponse } },
    async (request) => {
      const q = request.query;
      const page = await app.services.notifications.list(request.ctx, { unread: q.unread }, pageRequestOf(q));
      return {
        response_code: 200,
        data: page.items.map(presentNotification),
        pagination: { total: page.total, page: page.page, limit: page.limit, total_pages: Math.ceil(page.total / page.limit) },
        unread_count: page.unreadCount,
      };
    },
  );

  app.patch(
    '/portal/notifications/read-all',
    { schema: { tags, summary: 'Mark every notification of the caller read', response: changedResponse(Type.Object({ marked: Type.Integer() })) } },
    async (request) => changed('Notifications marked read', { marked: await app.services.notifications.markAllRead(request.ctx) }),
  );

  app.patch(
    '/portal/notifications/:id/read',
    { schema: { tags, summary: 'Mark one notification read (another user’s: 404)', params: IdParams, response: changedResponse(NotificationBody) } },
    async (request) => changed('Notification marked read', presentNotification(await app.services.notifications.markRead(request.ctx, request.params.id))),
  );

  app.post(
    '/portal/notifications/device-token',
    {
      schema: {
        tags,
        summary: 'Register a device token (idempotent: the same token is the same row; 201 when new, 200 when it existed)',
        body: TokenBody,
        response: { 201: changedResponse(DeviceTokenBody)[200], ...changedResponse(DeviceTokenBody) },
      },
    },
    async (request, reply) => {
      const { token, created: isNew } = await app.services.notifications.registerToken(request.ctx, request.body);
      if (isNew) return reply.code(201).send(created('Device token registered', presentDeviceToken(token)));
      return changed('Device token refreshed', presentDeviceToken(token));
    },
  );

  app.delete(
    '/portal/notifications/device-token',
    { schema: { tags, summary: 'Unregister one of the caller’s device tokens by its value (404 when the caller has none such)', body: TokenValue, response: changedResponse(Type.Null()) } },
    async (request) => {
      await app.services.notifications.unregisterToken(request.ctx, request.body.token);
      return changed('Device token unregistered', null);
    },
  );

  app.get(
    '/portal/notifications/preferences',
    { schema: { tags, summary: 'The caller’s notification preferences (quiet hours)', response: okResponse(PreferencesBody) } },
    async (request) => ok(presentPreferences(await app.services.notifications.preferences(request.ctx))),
  );

  app.put(
    '/portal/notifications/preferences',
    { schema: { tags, summary: 'Set or clear the caller’s quiet hours: pushes wait until their end; the inbox row is written at once', body: QuietHoursBody, response: changedResponse(PreferencesBody) } },
    async (request) =>
      changed(
        'Notification preferences saved',
        presentPreferences(await app.services.notifications.setQuietHours(request.ctx, request.body.quiet_hours_start, request.body.quiet_hours_end)),
      ),
  );
};
