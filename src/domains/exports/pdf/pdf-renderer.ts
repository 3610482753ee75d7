import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PdfInput } from './pdf-input';

const WORKER = 'pdf-render.worker.js';

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

/**
 * Lays PDFs out on worker threads, so the event loop keeps answering while pdfmake works: one
 * fresh thread per PDF (its memory is returned when it exits), at most `concurrency` at a time,
 * the rest queued.
 */
export class PdfRenderer {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly concurrency = 2) {}

  async render(input: PdfInput): Promise<Buffer> {
    await this.slot();
    try {
      return await new Promise<Buffer>((resolve, reject) => {
        const worker = new Worker(workerFile(), { workerData: input, resourceLimits: { maxOldGenerationSizeMb: 512 } });
        worker.once('message', (bytes: Uint8Array) => resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`PDF worker exited with code ${code} before answering`)));
      });
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async slot(): Promise<void> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
  }
}
