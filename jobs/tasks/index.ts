import type { TaskList } from 'graphile-worker';

/**
 * Every task the worker runs, keyed by its identifier (= its file name in this folder).
 * Tasks arrive with the features that enqueue them (webhook deliveries, exports).
 */
export const TASKS: TaskList = {};
