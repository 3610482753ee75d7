import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Slots } from '../../../concurrency/slots';
import type { PdfInput } from './pdf-input';
import type { RenderReply } from './pdf-render.worker';

const WORKER = 'pdf-render.worker.js';
/** A rendering thread with nothing to do for this long exits (and returns its memory). */
export const PDF_THREAD_IDLE_MS = 60_000;

/**
 * The compiled worker beside this file; when running from TypeScript sources (the tests), the one
 * `npm run build` wrote under dist/.
 */
function workerFile(): string {
  const beside = path.join(__dirname, WORKER);
  if (existsSync(beside)) return beside;
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  return path.join(root, 'dist', path.relative(root, __dirname), WORKER);
}

/** One worker thread that writes PDFs, one at a time. */
class RenderThread {
  private readonly worker = new Worker(workerFile(), { resourceLimits: { maxOldGenerationSizeMb: 512 } });
  private pending: { resolve(bytes: Buffer): void; reject(err: Error): void } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Exited, crashed or stopped: never used again. */
  dead = false;

  constructor() {
    this.worker.on('message', (reply: RenderReply) => {
      const pending = this.pending;
      this.pending = null;
      if ('error' in reply) pending?.reject(new Error(`PDF layout failed: ${reply.error}`));
      else pending?.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`PDF worker exited with code ${code} before answering`)));
  }

  render(input: PdfInput): Promise<Buffer> {
    if (this.dead) return Promise.reject(new Error('PDF worker is no longer running'));
    this.clearIdleTimer();
    this.worker.ref();
    return new Promise<Buffer>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(input);
    });
  }

  /** Waiting for work: keeps no process alive, and stops by itself after `idleMs`. */
  park(idleMs: number, expired: () => void): void {
    this.worker.unref();
    this.idleTimer = setTimeout(expired, idleMs).unref();
  }

  stop(): Promise<number> {
    this.clearIdleTimer();
    this.dead = true;
    return this.worker.terminate();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private fail(err: Error): void {
    this.dead = true;
    this.clearIdleTimer();
    const pending = this.pending;
    this.pending = null;
    pending?.reject(err);
  }
}

/**
 * Lays PDFs out on worker threads, so the event loop keeps answering while they are written: at
 * most `concurrency` at a time, the rest queued. A thread is kept for the next PDF (a fresh one
 * takes a second longer over its first) until it has been idle for `idleMs`; a thread that
 * crashed is replaced.
 */
export class PdfRenderer {
  private readonly slots: Slots;
  private readonly idle: RenderThread[] = [];
  private readonly busy = new Set<RenderThread>();

  constructor(
    private readonly concurrency = 2,
    private readonly idleMs = PDF_THREAD_IDLE_MS,
  ) {
    this.slots = new Slots(concurrency);
  }

  /** Threads alive (busy or idle). */
  get threads(): number {
    return this.idle.filter((t) => !t.dead).length + this.busy.size;
  }

  /**
   * Starts a thread ahead of a PDF, while its rows are still being read, when none is idle and
   * there is room for one: the thread loads and warms up meanwhile (see the worker).
   */
  prepare(): void {
    if (!this.idle.some((t) => !t.dead) && this.threads < this.concurrency) this.park(new RenderThread());
  }

  render(input: PdfInput): Promise<Buffer> {
    return this.slots.run(async () => {
      // An idle thread may have died meanwhile (it crashed while warming up): those are dropped.
      let thread = this.idle.pop();
      while (thread?.dead) thread = this.idle.pop();
      thread ??= new RenderThread();
      this.busy.add(thread);
      try {
        return await thread.render(input);
      } finally {
        this.busy.delete(thread);
        if (!thread.dead) this.park(thread);
      }
    });
  }

  /** Stops every thread (a PDF being written fails). */
  async close(): Promise<void> {
    const threads = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(threads.map((t) => t.stop()));
  }

  private park(thread: RenderThread): void {
    this.idle.push(thread);
    thread.park(this.idleMs, () => {
      const at = this.idle.indexOf(thread);
      if (at >= 0) this.idle.splice(at, 1);
      void thread.stop();
    });
  }
}
