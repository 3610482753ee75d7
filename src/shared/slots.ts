/** At most `size` pieces of work at a time; the others wait, first come first served. */
export class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Pieces of work running now. */
  get inUse(): number {
    return this.used;
  }

  /** Runs `work` once a slot is free, and frees the slot when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.used++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot take it in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    }
  }
}
