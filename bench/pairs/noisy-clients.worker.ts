import { parentPort, workerData } from 'node:worker_threads';

/** What the noisy clients' thread is given. */
export interface NoisyClientsData {
  baseUrl: string;
  keys: string[];
  documents: string[];
}

/** What it answers when told to stop. */
export interface NoisyCounts {
  answered: number;
  refused: number;
}

const { baseUrl, keys, documents } = workerData as NoisyClientsData;
let stopped = false;
let wake: () => void = () => {};
const stop = new Promise<void>((resolve) => (wake = resolve));
parentPort!.once('message', () => {
  stopped = true;
  wake();
});

/**
 * A client sends the heavy documents back to back, as fast as they are answered; refused with 429,
 * it waits the Retry-After it was given (as Shopify's clients do), or until told to stop.
 */
async function client(key: string, first: number, counts: NoisyCounts): Promise<void> {
  for (let n = first; !stopped; n += 1) {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: documents[n % documents.length] }),
    });
    const body = await res.text();
    if (res.status === 429) {
      counts.refused += 1;
      const wait = Number(res.headers.get('retry-after') ?? '1') * 1000;
      await Promise.race([stop, new Promise((resolve) => setTimeout(resolve, wait))]);
    } else if (res.status === 200 && !body.includes('"errors"')) {
      counts.answered += 1;
    } else {
      throw new Error(`a heavy document answered ${res.status}: ${body.slice(0, 300)}`);
    }
  }
}

const counts: NoisyCounts = { answered: 0, refused: 0 };
Promise.all(keys.map((key, i) => client(key, i, counts))).then(
  () => parentPort!.postMessage({ counts }),
  (err: Error) => parentPort!.postMessage({ error: err.message }),
);
