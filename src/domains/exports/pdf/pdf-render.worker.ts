import { parentPort, workerData } from 'node:worker_threads';
import { layOutPdf } from './pdf-layout';
import type { PdfInput } from './pdf-input';

// One PDF per thread: lay it out, hand the bytes back, exit.
void layOutPdf(workerData as PdfInput).then((bytes) => parentPort!.postMessage(bytes));
