import type { Task } from 'graphile-worker';
import type { PushSender } from '../../src/domains/notifications/push-sender';
import { defineTask } from '../define-task';

/** The push of one notification (payload `{organizationId, notificationId}`); idempotent: a pushed notification is left alone. */
export const sendPush = (sender: PushSender): Task =>
  defineTask('send_push', (payload, helpers) => sender.run((work) => helpers.withPgClient(work), payload.organizationId, payload.notificationId));
