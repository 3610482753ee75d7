/** Where failures of background work are reported. */
export interface FailureLog {
  error(details: object, message: string): void;
}

/**
 * Work a request starts but does not wait for, such as delivering a sign-in code: the answer
 * then takes the same time whether or not there was anything to deliver, and a slow or failing
 * mail server cannot hold the request. Failures are logged; `settled()` lets shutdown (and
 * tests) wait for what is in flight.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FailureLog) {}

  /** Starts `work` now; the caller goes on at once. A failure is logged under `label`. */
  run(label: string, work: () => Promise<void>): void {
    const task = work()
      .catch((err) => this.log.error({ err, task: label }, 'background task failed'))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Resolves once every task started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
