import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/shared/slots';

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Slots', () => {
  it('runs at most `size` pieces of work at once, the others in arrival order', async () => {
    const slots = new Slots(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect(slots.inUse).toBe(2);

    gates[1].resolve();
    await expect(runs[1]).resolves.toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    expect(slots.inUse).toBe(2);

    gates[0].reject(new Error('failed'));
    await expect(runs[0]).rejects.toThrow('failed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);

    gates[2].resolve();
    gates[3].resolve();
    await Promise.all([runs[2], runs[3]]);
    expect(slots.inUse).toBe(0);
  });

  it('does not let a newcomer take a slot freed for one already waiting', async () => {
    const slots = new Slots(1);
    const first = deferred();
    const order: string[] = [];
    const a = slots.run(() => first.promise.then(() => void order.push('a')));
    const b = slots.run(async () => void order.push('b'));
    first.resolve();
    await a;
    const c = slots.run(async () => void order.push('c'));
    await Promise.all([b, c]);
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
