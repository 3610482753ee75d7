import type { SqlClient, WithClient } from '../../db/sql-client';
import { sql, tenantSql, type Sql } from '../../db/tenant-sql';
import type { PushTransport } from './push-transport';

interface PendingNotification {
  id: number;
  user_id: number;
  type: string;
  title: string;
  body: string;
  entity_type: string | null;
  entity_id: number | null;
}

interface LiveToken {
  id: number;
  token: string;
  app: string;
  platform: string;
}

const run = async <R>(client: SqlClient, statement: Sql) => (await client.query<R>(statement.pgText, [...statement.values])).rows;

/** Longest provider error kept on a token. */
const MAX_ERROR = 500;

/**
 * The send_push job: sends one notification to every live device token of its user, once (a
 * notification already pushed is left alone: pushed_at). A token the provider answers
 * UNREGISTERED (or SENDER_ID_MISMATCH) for is disabled, with the answer as its last_error; another
 * failure is recorded on the token, which stays live. The job is not retried for a token's
 * failure (the inbox row is the record; a retry would repeat the pushes that went through).
 */
export class PushSender {
  constructor(private readonly transport: PushTransport) {}

  async run(withClient: WithClient, organizationId: number, notificationId: number): Promise<void> {
    const t = tenantSql(organizationId, 'n');
    const [notification] = await withClient((c) =>
      run<PendingNotification>(
        c,
        sql`select n.id, n.user_id, n.type, n.title, n.body, n.entity_type, n.entity_id from notification n
             where ${t.owns()} and n.id = ${notificationId} and n.pushed_at is null`,
      ),
    );
    if (!notification) return;
    const d = tenantSql(organizationId, 'd');
    const tokens = await withClient((c) =>
      run<LiveToken>(c, sql`select d.id, d.token, d.app, d.platform from device_token d where ${d.owns()} and d.user_id = ${notification.user_id} and d.disabled_at is null order by d.id`),
    );
    for (const token of tokens) {
      const data: Record<string, string> = { notification_id: String(notification.id), type: notification.type, app: token.app, platform: token.platform };
      if (notification.entity_type !== null) data.entity_type = notification.entity_type;
      if (notification.entity_id !== null) data.entity_id = String(notification.entity_id);
      const outcome = await this.transport.send({ token: token.token, title: notification.title, body: notification.body, data }).catch((err: unknown) => ({
        status: 'failed' as const,
        error: err instanceof Error ? err.message : String(err),
      }));
      if (outcome.status === 'sent') continue;
      const error = outcome.error.slice(0, MAX_ERROR);
      const disable = outcome.status === 'unregistered';
      await withClient((c) =>
        run(
          c,
          sql`update device_token d set last_error = ${error}, disabled_at = case when ${disable} then now() else d.disabled_at end, updated_at = now()
               where ${d.owns()} and d.id = ${token.id}`,
        ),
      );
    }
    await withClient((c) => run(c, sql`update notification n set pushed_at = now() where ${t.owns()} and n.id = ${notificationId}`));
  }
}
