import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { applyDuePricesEverywhere } from '../../src/domains/products/variant-prices';
import { defineTask } from '../define-task';

/**
 * Every 15 minutes: copies onto each variant its price in force today (each workspace's local day)
 * where a version that was written for a later day has come due. Idempotent (a variant already at
 * its price in force is left alone).
 */
export const applyDuePrices = (orm: MikroORM): Task =>
  defineTask('apply_due_prices', async (_payload, helpers) => {
    const changed = await applyDuePricesEverywhere(orm.em.fork());
    if (changed > 0) helpers.logger.info(`apply_due_prices: repriced ${changed} variant(s)`);
  });
