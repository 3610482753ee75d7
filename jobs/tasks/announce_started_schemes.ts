import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { announceStartedSchemes } from '../../src/domains/schemes/scheme-announce';
import { defineTask } from '../define-task';

/** Every 15 minutes: tells the customers in each newly started scheme's scope, once (scheme-announce.ts). */
export const announceStartedSchemesTask = (orm: MikroORM): Task =>
  defineTask('announce_started_schemes', async (_payload, helpers) => {
    const announced = await announceStartedSchemes(orm.em.fork());
    if (announced > 0) helpers.logger.info(`announce_started_schemes: ${announced} scheme(s) announced`);
  });
