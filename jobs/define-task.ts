import type { JobHelpers, Task } from 'graphile-worker';
import { TASK_PAYLOADS, type PayloadOf, type TaskName } from './payloads';

/** Longest excerpt of a refused payload written to the log. */
const LOGGED_PAYLOAD_CHARS = 500;

/**
 * A task whose handler only ever sees a payload its schema accepts (the schema producers are
 * checked against). A malformed payload is logged as an error, naming the job and the fields, and
 * the job is dropped (completed without running): it would fail the same way on every one of
 * graphile-worker's retries (25 by default, over about three days), and 0.17 gives a running task
 * no public way to mark its own job failed for good. Whatever the handler throws is retried as usual.
 */
export function defineTask<T extends TaskName>(name: T, handler: (payload: PayloadOf<T>, helpers: JobHelpers) => Promise<void>): Task {
  const schema = TASK_PAYLOADS[name];
  return async (payload, helpers) => {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`).join('; ');
      const excerpt = (JSON.stringify(payload) ?? String(payload)).slice(0, LOGGED_PAYLOAD_CHARS);
      helpers.logger.error(`${name}: job ${helpers.job.id} dropped without retry, malformed payload (${problems}): ${excerpt}`);
      return;
    }
    await handler(parsed.data as PayloadOf<T>, helpers);
  };
}
