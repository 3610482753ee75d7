import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { warnNearingBreaches } from '../../src/domains/grievances/grievance-breaches';
import { defineTask } from '../define-task';

/**
 * Every 15 minutes: stamps and warns the assignee of each grievance within 4 hours of its
 * acknowledge-by or resolve-by deadline (or past it) that was not warned for that deadline yet.
 */
export const warnGrievanceBreaches = (orm: MikroORM): Task =>
  defineTask('warn_grievance_breaches', async (_payload, helpers) => {
    const warned = await warnNearingBreaches(orm.em.fork());
    if (warned > 0) helpers.logger.info(`warn_grievance_breaches: ${warned} warning(s)`);
  });
