import type { TaskList } from 'graphile-worker';
import { delete_expired_sign_in_codes } from './delete_expired_sign_in_codes';

/** Every task the worker runs, keyed by its identifier (= its file name in this folder). */
export const TASKS: TaskList = {
  delete_expired_sign_in_codes,
};
