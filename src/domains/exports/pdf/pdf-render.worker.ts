import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { layOutPdf } from './pdf-layout';
import { PrintedRows, type PdfInput } from './pdf-input';

/** What the thread answers for each PdfInput it is sent, in order. */
export type RenderReply = { bytes: Uint8Array } | { error: string };

/**
 * Below the event loop in the scheduler's eyes (nice 19): on a machine of few cores, a PDF being
 * written then takes the CPU the request thread leaves, instead of a share of it (BENCHMARKS.md, "Figures behind the code"). Linux names threads by id (/proc/thread-self) and setpriority takes one; elsewhere the
 * thread keeps its priority.
 */
function yieldToRequests(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) os.setPriority(threadId, os.constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux, or not allowed: nothing lost but the courtesy.
  }
}

/**
 * A small export laid out as the thread starts (while the request thread is still reading rows):
 * it loads the fonts and gets the layout code compiled, so the first real PDF runs at full speed.
 */
function warmUp(): Promise<unknown> {
  const rows = new PrintedRows();
  for (let i = 1; i <= 150; i++) {
    const day = `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`;
    rows.add([`ORD-2026-${String(i).padStart(6, '0')}`, day, 'Approved', 'Asha Kumari Traders', 'Main Road Stores', 'Vallabh Vidyanagar', 'North Loop', '1', (i * 137.25).toLocaleString('en-IN', { minimumFractionDigits: 2 }), `${day} 10:${String(i % 60).padStart(2, '0')}`]);
  }
  const columns = [18, 12, 11, 20, 20, 16, 16, 10, 18, 17].map((width, i) => ({ header: `Column ${i}`, width, alignment: i === 7 || i === 8 ? ('right' as const) : ('left' as const) }));
  const branding = { name: 'Warm-up', address: 'Address', contactNumber: '', gstin: '', fssai: '', footerName: '', primaryColor: '#1F4E79', logo: null };
  const input: PdfInput = { title: 'Warm-up', filterLines: ['Filter'], summaryLine: 'Summary', orientation: 'landscape', columns, rows: rows.pack(), totals: null, branding };
  return layOutPdf(input).catch(() => undefined);
}

yieldToRequests();
let ready = warmUp();

// One PDF at a time, as long as the thread lives, each answered: its bytes (moved, not copied) or its error.
parentPort!.on('message', (input: PdfInput) => {
  ready = ready.then(() => render(input));
});

async function render(input: PdfInput): Promise<void> {
  try {
    const bytes = await layOutPdf(input);
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const reply: RenderReply = { bytes };
    parentPort!.postMessage(reply, owned ? [bytes.buffer as ArrayBuffer] : []);
  } catch (err) {
    const reply: RenderReply = { error: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage(reply);
  }
}
