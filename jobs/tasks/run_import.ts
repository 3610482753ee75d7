import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { ImportService } from '../../src/domains/imports/import.service';
import type { Slots } from '../../src/concurrency/slots';
import { defineTask } from '../define-task';

/**
 * Checks and writes one queued import (payload `{organizationId, importJobId}`) from its stored
 * file. It shares the export jobs' slots (each holds a pooled connection and a file in memory).
 * Failures other than refusals are retried up to the job's max_attempts: the write is one
 * transaction, so a broken run leaves nothing and a retry starts over.
 */
export const runImport = (imports: ImportService, slots: Slots, orm: MikroORM): Task =>
  defineTask('run_import', async (payload, helpers) => {
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    await slots.run(() => imports.runJob(orm.em.fork(), payload.organizationId, payload.importJobId, lastAttempt));
  });
