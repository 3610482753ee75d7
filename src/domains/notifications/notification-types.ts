/**
 * Every kind of notification the inbox holds. Adding one is a line here (and a `notify` call in
 * the domain whose event writes it); GraphQL and the REST docs list them from this table.
 */
export const NOTIFICATION_TYPES = {
  /** An order of the customer moved along its flow, or was cancelled. */
  order_status: 'Order status changed',
  /** A payment was recorded for the customer. */
  payment_recorded: 'Payment recorded',
  /** A scheme the customer qualifies for started (wired by the schemes domain later). */
  scheme_started: 'Scheme started',
  /** A grievance of the user (its customer or assignee) changed. */
  grievance_updated: 'Grievance updated',
  /** A grievance assigned to the user nears its acknowledge-by or resolve-by deadline. */
  grievance_deadline: 'Grievance deadline near',
  /** An approval step waits for the user. */
  approval_requested: 'Approval requested',
  /** The user's approval request was decided. */
  approval_decided: 'Approval decided',
  /** Anything else the workspace says to its users. */
  system: 'System',
} as const;

/** A notification type. */
export type NotificationType = keyof typeof NOTIFICATION_TYPES;

/** Every type, in the table's order. */
export const NOTIFICATION_TYPE_NAMES = Object.keys(NOTIFICATION_TYPES) as NotificationType[];

/** The apps a device token belongs to. */
export const DEVICE_APPS = ['portal', 'driver', 'field'] as const;
export type DeviceApp = (typeof DEVICE_APPS)[number];

/** The platforms a device token is for. */
export const DEVICE_PLATFORMS = ['android', 'ios', 'web'] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

/** Longest title, body, entity type and token the tables keep. */
export const MAX_TITLE = 200;
export const MAX_BODY = 2000;
export const MAX_ENTITY_TYPE = 40;
export const MAX_TOKEN = 1000;
