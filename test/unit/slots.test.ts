import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/concurrency/slots';

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

  it('gives no group more than its share; work of other groups goes first meanwhile', async () => {
    const slots = new Slots(4, 2);
    const gates = Array.from({ length: 4 }, () => deferred());
    const started: string[] = [];
    const heavy = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(`a${i}`);
        await gate.promise;
      }, 'a'),
    );
    await new Promise((resolve) => setImmediate(resolve));
    // Two of a's four run; the other two wait although two slots are free.
    expect(started).toEqual(['a0', 'a1']);
    expect(slots.inUse).toBe(2);
    expect(slots.inUseBy('a')).toBe(2);

    // Another group, arriving later, runs at once; so does work of no group.
    await slots.run(async () => void started.push('b'), 'b');
    await slots.run(async () => void started.push('none'));
    expect(started).toEqual(['a0', 'a1', 'b', 'none']);

    // When one of a's ends, the next of a's starts: a keeps at most two.
    gates[0].resolve();
    await heavy[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a0', 'a1', 'b', 'none', 'a2']);
    expect(slots.inUseBy('a')).toBe(2);
    for (const gate of gates) gate.resolve();
    await Promise.all(heavy);
    expect(started.at(-1)).toBe('a3');
    expect(slots.inUse).toBe(0);
    expect(slots.inUseBy('a')).toBe(0);
  });

  it('hands a freed slot to the first waiter whose group is under its share', async () => {
    const slots = new Slots(2, 1);
    const a = deferred();
    const b = deferred();
    const started: string[] = [];
    const runs = [
      slots.run(() => a.promise.then(() => void started.push('a0 done')), 'a'),
      slots.run(() => b.promise.then(() => void started.push('b0 done')), 'b'),
      slots.run(async () => void started.push('a1'), 'a'),
      slots.run(async () => void started.push('c0'), 'c'),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([]);
    // b's slot frees: a1 is first in line but a is at its share, so c0 takes it.
    b.resolve();
    await runs[1];
    await runs[3];
    expect(started).toEqual(['b0 done', 'c0']);
    a.resolve();
    await Promise.all(runs);
    expect(started).toEqual(['b0 done', 'c0', 'a0 done', 'a1']);
  });
  it('takes a slot with acquire and frees it once, however often its release is called', async () => {
    const slots = new Slots(2, 1);
    const release = await slots.acquire('a');
    expect([slots.inUse, slots.inUseBy('a')]).toEqual([1, 1]);
    let second = false;
    const waiting = slots.acquire('a').then((r) => ((second = true), r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBe(false);
    release();
    release();
    const releaseSecond = await waiting;
    expect([slots.inUse, slots.inUseBy('a')]).toEqual([1, 1]);
    releaseSecond();
    expect([slots.inUse, slots.inUseBy('a')]).toEqual([0, 0]);
  });
});
