import { readdirSync } from 'node:fs';
import os from 'node:os';

/**
 * Puts the threads the process has before any of its code runs (V8's platform threads: concurrent
 * marking, parallel scavenges and background compilation, for every isolate of the process) below
 * the request thread, at the PDF rendering thread's priority (nice 19). Returns how many it lowered.
 *
 * Those threads do the garbage collection of the PDF rendering thread's heap too, which at nice 0
 * competed with the event loop on a machine of few cores (BENCHMARKS.md, "Figures behind the code"). The event loop's own collections
 * lose nothing it needs: it takes part in them itself.
 *
 * main.ts calls this before anything starts: libuv's thread pool (files, DNS, hashing) starts on
 * first use, later, and keeps the default priority. Linux names threads by id under /proc/self/task
 * and setpriority takes one; elsewhere nothing changes.
 */
export function lowerHelperThreads(): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  for (const entry of readdirSync('/proc/self/task')) {
    const threadId = Number(entry);
    if (threadId === process.pid) continue; // the main thread: the event loop
    try {
      os.setPriority(threadId, os.constants.priority.PRIORITY_LOW);
      lowered += 1;
    } catch {
      // Gone meanwhile, or not allowed: it keeps its priority.
    }
  }
  return lowered;
}
