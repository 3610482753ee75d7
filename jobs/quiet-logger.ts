import { consoleLogFactory, Logger } from 'graphile-worker';

/**
 * graphile-worker's console logger without two lines:
 * - the INFO line it prints for every job that succeeds: at hundreds of webhook deliveries a
 *   second that line is most of the process's output and a measurable share of its CPU;
 * - its start-up warning that the pool (10 connections) is smaller than the concurrency (32). That
 *   is on purpose: a webhook attempt holds a connection only for its claim and its record, not
 *   while it waits on the receiver (see WORKER_CONCURRENCY for the measurements).
 * Other warnings, errors and start-up lines still print.
 */
export function quietWorkerLogger(): Logger {
  return new Logger((scope) => {
    const print = consoleLogFactory(scope);
    return (level, message, meta) => {
      // `success` is set only on graphile-worker's "Completed task … with success" line.
      if ((level as string) === 'info' && meta?.success === true) return;
      if ((level as string) === 'warning' && message.includes('smaller than concurrency')) return;
      print(level, message);
    };
  });
}
