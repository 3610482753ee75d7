import type { SqlClient, WithClient } from '../../db/sql-client';

interface Waiting<T, R> {
  item: T;
  withClient: WithClient;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/** Items sent in one statement at most. */
export const MAX_BATCH = 64;

/**
 * Runs the statements of concurrent attempts as one statement per batch. Every commit waits for
 * a WAL flush (about 2 ms on this kind of disk, shared by every database of the server), and the
 * watchdog's add_job sends a NOTIFY, whose commits PostgreSQL serialises one flush after another
 * (a cluster-wide lock held through the commit). Items asked for while a statement is on its way
 * wait for it and then go together: an idle worker runs each at once, a busy one shares one
 * commit among the batch. Each batch runs on a connection lent by one of its callers; callers
 * must not hold a connection while they wait, or a pool of waiting callers could leave it none.
 * Items with the same key go in different batches.
 */
export class StatementBatcher<T, R> {
  private waiting: Array<Waiting<T, R>> = [];
  private sending = false;

  constructor(
    private readonly keyOf: (item: T) => number,
    private readonly runBatch: (client: SqlClient, items: T[]) => Promise<R[]>,
  ) {}

  /** Runs `item` in the next batch; resolves to its own result. */
  run(withClient: WithClient, item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, withClient, resolve, reject });
      if (!this.sending) void this.sendWaiting();
    });
  }

  private async sendWaiting(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const batch = this.nextBatch();
      try {
        const items = batch.map((w) => w.item);
        const results = await batch[0].withClient((client) => this.runBatch(client, items));
        batch.forEach((w, i) => w.resolve(results[i]));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.sending = false;
  }

  /** Up to MAX_BATCH waiting items with distinct keys; the rest wait for the next batch. */
  private nextBatch(): Array<Waiting<T, R>> {
    const batch: Array<Waiting<T, R>> = [];
    const keys = new Set<number>();
    const later: Array<Waiting<T, R>> = [];
    for (const w of this.waiting) {
      if (batch.length < MAX_BATCH && !keys.has(this.keyOf(w.item))) {
        batch.push(w);
        keys.add(this.keyOf(w.item));
      } else later.push(w);
    }
    this.waiting = later;
    return batch;
  }
}
