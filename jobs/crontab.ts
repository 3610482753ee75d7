import { parseCronItems, type CronItem } from 'graphile-worker';

/** Recurring tasks. Each runs once per slot across all workers (graphile-worker locks the slot). */
export const CRON_ITEMS: CronItem[] = [
  // Hourly at minute 17, away from the top of the hour when other jobs pile up.
  { task: 'delete_expired_sign_in_codes', match: '17 * * * *', identifier: 'delete_expired_sign_in_codes' },
  // Hourly at minute 23: export files past their 24-hour retention.
  { task: 'delete_expired_exports', match: '23 * * * *', identifier: 'delete_expired_exports' },
  // Daily at 03:41 UTC.
  { task: 'delete_old_webhook_deliveries', match: '41 3 * * *', identifier: 'delete_old_webhook_deliveries' },
];

/** The crontab in the form the runner takes. */
export const parsedCronItems = () => parseCronItems(CRON_ITEMS);
