import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { ExportJobService } from '../../src/domains/exports/export-jobs';
import { defineTask } from '../define-task';

/** Deletes export files past their retention and jobs that never finished (cron, hourly). */
export const deleteExpiredExports = (jobs: ExportJobService, orm: MikroORM): Task =>
  defineTask('delete_expired_exports', async (_payload, helpers) => {
    const deleted = await jobs.deleteExpired(orm.em.fork());
    if (deleted > 0) helpers.logger.info(`delete_expired_exports: deleted ${deleted} export(s)`);
  });
