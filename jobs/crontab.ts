import { parseCronItems, type CronItem } from 'graphile-worker';
import { domainCron } from '../src/domains';

/**
 * The recurring tasks every domain declares (DomainModule.cron). Each runs once per slot across all
 * workers (graphile-worker locks the slot).
 */
export const CRON_ITEMS: readonly CronItem[] = domainCron();

/** The crontab in the form the runner takes. */
export const parsedCronItems = () => parseCronItems([...CRON_ITEMS]);
