/** One piece of work waiting for a slot. */
interface Waiting {
  group: string | undefined;
  start: () => void;
}

/**
 * At most `size` pieces of work at a time; the others wait, first come first served. With
 * `perGroup`, no group (a workspace, say) holds more than that many at once: a piece of work whose
 * group has its share waits, and lets work of other groups that arrived after it go first.
 */
export class Slots {
  private used = 0;
  private readonly waiting: Waiting[] = [];
  private readonly usedBy = new Map<string, number>();

  constructor(
    readonly size: number,
    readonly perGroup: number = size,
  ) {}

  /** Pieces of work running now. */
  get inUse(): number {
    return this.used;
  }

  /** Pieces of work of `group` running now. */
  inUseBy(group: string): number {
    return this.usedBy.get(group) ?? 0;
  }

  /** Runs `work` once a slot is free (and its group is under its share), and frees the slot when it settles. */
  async run<T>(work: () => Promise<T>, group?: string): Promise<T> {
    const release = await this.acquire(group);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * Waits for a slot (as `run` does) and takes it; the function returned frees it (once, whatever
   * the number of calls), for work that starts and ends in different places.
   */
  async acquire(group?: string): Promise<() => void> {
    if (this.used < this.size && this.hasShare(group)) this.take(group);
    // Taken for it by whoever frees the slot it gets.
    else await new Promise<void>((start) => this.waiting.push({ group, start }));
    let held = true;
    return () => {
      if (held) this.release(group);
      held = false;
    };
  }

  private hasShare(group: string | undefined): boolean {
    return group === undefined || this.inUseBy(group) < this.perGroup;
  }

  private take(group: string | undefined): void {
    this.used++;
    if (group !== undefined) this.usedBy.set(group, this.inUseBy(group) + 1);
  }

  private release(group: string | undefined): void {
    this.used--;
    if (group !== undefined) {
      const left = this.inUseBy(group) - 1;
      if (left > 0) this.usedBy.set(group, left);
      else this.usedBy.delete(group);
    }
    // The slot passes straight to the first in line whose group is under its share, so a newcomer
    // cannot take it in between.
    const next = this.waiting.findIndex((w) => this.hasShare(w.group));
    if (next < 0) return;
    const [waiter] = this.waiting.splice(next, 1);
    this.take(waiter.group);
    waiter.start();
  }
}
