import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { materialiseTodayEverywhere } from '../../src/domains/beat-plans/beat-plan-days';
import { defineTask } from '../define-task';

/**
 * Hourly: writes the frozen day instance of today (each workspace's local day) for every employee
 * whose template falls on it and whose day is not stored yet. Idempotent (a day that exists is kept).
 */
export const materialiseBeatPlanDays = (orm: MikroORM): Task =>
  defineTask('materialise_beat_plan_days', async (_payload, helpers) => {
    const frozen = await materialiseTodayEverywhere(orm.em.fork());
    if (frozen > 0) helpers.logger.info(`materialise_beat_plan_days: froze ${frozen} day plan(s)`);
  });
