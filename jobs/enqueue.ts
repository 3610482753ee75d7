import { EntityManager } from '@mikro-orm/postgresql';
import type { SqlClient } from '../src/db/sql-client';
import { executeSql, joinSql, sql, type Sql } from '../src/db/tenant-sql';
import { TASK_PAYLOADS, type PayloadOf, type TaskName } from './payloads';

/*
 * The only way jobs are queued: graphile_worker.add_job inside the caller's transaction, so a job
 * commits or rolls back with the change that caused it (style convention 9). Task names and
 * payload shapes come from the task table (payloads.ts), so the type system checks them.
 */

/**
 * The transaction a job joins: an EntityManager inside `transactional()` (services), or a pg
 * client inside its begin/commit or in a statement's own implicit transaction (the worker).
 */
export type JobTx = EntityManager | SqlClient;

/** Options of one job, as values. */
export interface EnqueueOptions {
  /** Runs this long after the statement, by the database's clock (default: at once). */
  delayMs?: number;
  /** A job with the same key that has not started is replaced (moved), never duplicated. */
  jobKey?: string;
  /** Runs before graphile-worker gives up (its default: 25). */
  maxAttempts?: number;
}

/** Options of one job, as SQL expressions (over the columns of a statement's rows). */
export interface JobColumns {
  runAt?: Sql;
  jobKey?: Sql;
  maxAttempts?: Sql;
}

/** Every payload field of task `T`, as a SQL expression. */
export type PayloadColumns<T extends TaskName> = { [K in keyof PayloadOf<T>]-?: Sql };

/**
 * Queues one job of `task` in the caller's transaction. The payload is parsed with the task's
 * schema first: a payload the task would refuse throws here (a bug in the caller) and queues nothing.
 */
export async function enqueue<T extends TaskName>(tx: JobTx, task: T, payload: PayloadOf<T>, options: EnqueueOptions = {}): Promise<void> {
  const checked: unknown = TASK_PAYLOADS[task].parse(payload);
  const job = addJob(task, sql`${JSON.stringify(checked)}::json`, {
    runAt: options.delayMs === undefined ? undefined : sql`now() + make_interval(secs => ${options.delayMs}::double precision / 1000)`,
    jobKey: options.jobKey === undefined ? undefined : sql`${options.jobKey}::text`,
    maxAttempts: options.maxAttempts === undefined ? undefined : sql`${options.maxAttempts}::int`,
  });
  const statement = sql`select j.id from ${job} j`;
  if (tx instanceof EntityManager) await executeSql(tx, statement);
  else await tx.query(statement.pgText, [...statement.values]);
}

/**
 * The `graphile_worker.add_job(…)` call that queues one job of `task` per row of the statement it
 * is part of (in a select list, or `lateral … j` in a from list), its payload fields built from
 * the row's columns. For statements that queue a batch in one round trip; the task still parses
 * each payload when it runs. Values inside `columns` and `options` are bound, never spliced.
 */
export function addJobFor<T extends TaskName>(task: T, columns: PayloadColumns<T>, options: JobColumns = {}): Sql {
  const shape = TASK_PAYLOADS[task].shape;
  const fields = Object.entries(columns as Record<string, Sql>).map(([key, value]) => {
    if (!Object.hasOwn(shape, key)) throw new Error(`${task} has no payload field ${key}`);
    return sql`${key}::text, ${value}`;
  });
  return addJob(task, sql`json_build_object(${joinSql(fields, ', ')})`, options);
}

function addJob(task: TaskName, payload: Sql, options: JobColumns): Sql {
  const args = [sql`${task}::text`, payload];
  if (options.runAt) args.push(sql`run_at := ${options.runAt}`);
  if (options.maxAttempts) args.push(sql`max_attempts := ${options.maxAttempts}`);
  if (options.jobKey) args.push(sql`job_key := ${options.jobKey}`);
  return sql`graphile_worker.add_job(${joinSql(args, ', ')})`;
}
