import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { ExportJobService } from '../../src/domains/exports/export-jobs';
import type { Slots } from '../../src/concurrency/slots';

const Payload = z.object({ organizationId: z.number().int().positive(), exportJobId: z.number().int().positive() });

/**
 * Writes one export job's file (payload `{organizationId, exportJobId}`) into the database.
 * Failures other than refusals are retried by graphile-worker up to the job's max_attempts; the
 * last one marks the export failed. At most `slots.size` run at once in a process; the others wait
 * in their job slot.
 */
export const runExport = (jobs: ExportJobService, slots: Slots, orm: MikroORM): Task => async (payload, helpers) => {
  const parsed = Payload.safeParse(payload);
  if (!parsed.success) {
    helpers.logger.error(`run_export: malformed payload ${JSON.stringify(payload)}; dropped`);
    return;
  }
  const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
  await slots.run(() => jobs.run(orm.em.fork(), parsed.data.organizationId, parsed.data.exportJobId, lastAttempt));
};
