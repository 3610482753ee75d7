import { consoleLogFactory, Logger } from 'graphile-worker';

/**
 * graphile-worker's console logger without the INFO line it prints for every job that succeeds:
 * at hundreds of webhook deliveries a second that line is most of the process's output and a
 * measurable share of its CPU. Failures (warnings, errors) and start-up lines still print.
 */
export function quietWorkerLogger(): Logger {
  return new Logger((scope) => {
    const print = consoleLogFactory(scope);
    return (level, message, meta) => {
      // `success` is set only on graphile-worker's "Completed task … with success" line.
      if ((level as string) === 'info' && meta?.success === true) return;
      print(level, message);
    };
  });
}
