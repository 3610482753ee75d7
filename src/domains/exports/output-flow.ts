import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';

/** A client that reads nothing for this long is given up on (its cursor and transaction released). */
export const STALLED_OUTPUT_MS = 60_000;

/** Waits for `step`, unless `output` closes first (the next write then fails); rejects after STALLED_OUTPUT_MS. */
export function doneOrClosed(step: Promise<void>, output: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`The export output took no data for ${STALLED_OUTPUT_MS / 1000} s`)), STALLED_OUTPUT_MS);
    const closed = () => settle();
    const settle = (err?: Error) => {
      clearTimeout(timer);
      output.off('close', closed);
      if (err) reject(err);
      else resolve();
    };
    output.on('close', closed);
    step.then(() => settle(), settle);
  });
}

/** Resolves on `source`'s `event`, rejects on an 'error' of any of `failing`; either way it stops listening. */
export function settledBy(source: EventEmitter, event: string, failing: EventEmitter[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      source.off(event, settle);
      for (const emitter of failing) emitter.off('error', settle);
      if (err) reject(err);
      else resolve();
    };
    source.once(event, settle);
    for (const emitter of failing) emitter.once('error', settle);
  });
}
