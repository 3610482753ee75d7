import type { Task } from 'graphile-worker';
import { defineTask } from '../define-task';

/** Expired one-time codes and links are kept this long (for support questions), then deleted. */
export const EXPIRED_CODE_RETENTION_DAYS = 7;

/**
 * Cron clean-up (hourly): deletes one-time codes and links that expired more than 7 days ago,
 * and redeemed challenge nonces whose challenge has expired. Maintenance across all workspaces,
 * so plain SQL without a tenant; idempotent, so a repeated run changes nothing.
 */
export const delete_expired_sign_in_codes: Task = defineTask('delete_expired_sign_in_codes', async (_payload, helpers) => {
  const codes = await helpers.query(`delete from sign_in_code where expires_at < now() - make_interval(days => $1)`, [EXPIRED_CODE_RETENTION_DAYS]);
  const nonces = await helpers.query(`delete from spent_nonce where expires_at < now()`);
  helpers.logger.info(`Deleted ${codes.rowCount ?? 0} expired sign-in codes and ${nonces.rowCount ?? 0} spent nonces`);
});
