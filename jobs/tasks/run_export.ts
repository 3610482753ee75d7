import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { ExportJobService } from '../../src/domains/exports/export-jobs';
import type { Slots } from '../../src/concurrency/slots';
import { defineTask } from '../define-task';

/**
 * Writes one export job's file (payload `{organizationId, exportJobId}`) into the database.
 * Failures other than refusals are retried by graphile-worker up to the job's max_attempts; the
 * last one marks the export failed. At most `slots.size` run at once in a process; the others wait
 * in their job slot.
 */
export const runExport = (jobs: ExportJobService, slots: Slots, orm: MikroORM): Task =>
  defineTask('run_export', async (payload, helpers) => {
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    await slots.run(() => jobs.run(orm.em.fork(), payload.organizationId, payload.exportJobId, lastAttempt));
  });
