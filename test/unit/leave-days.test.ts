import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { approvedLeaveDays } from '../../src/domains/leaves/leave-days';
import { UserType } from '../../src/domains/users/user.entity';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** approvedLeaveDays: the read beat-productivity scoring and sales-plan pro-rating take leave days from. */
describe('approvedLeaveDays', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let a: number;
  let b: number;
  let c: number;
  const day = (offset: number) => shiftDay(new Date().toISOString().slice(0, 10), offset);
  const em = () => t.orm.em.fork() as EntityManager;

  /** The token of each workspace's second admin, who decides (an admin never decides their own leave). */
  const decider = new Map<Workspace, string>();

  /** Applies as the admin on behalf of `userId`, then approves, rejects, or approves and cancels it. */
  async function leave(w: Workspace, userId: number, from: number, to: number, outcome: 'open' | 'approve' | 'reject' | 'cancel', halfDay = false) {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/leaves',
      token: w.token,
      payload: { user_id: userId, leave_type: 1, from_date: day(from), to_date: day(to), half_day: halfDay, reason: 'r' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id;
    const steps = { open: [], approve: ['approve'], reject: ['reject'], cancel: ['approve', 'cancel'] }[outcome];
    for (const step of steps) {
      const done = await t.request({ method: 'POST', url: `/api/v1/leaves/${id}/${step}`, token: decider.get(w) });
      expect(done.statusCode, done.body).toBe(200);
    }
  }

  beforeAll(async () => {
    t = await buildTestApp();
    [ws, other] = [await createWorkspace(t), await createWorkspace(t)];
    for (const w of [ws, other]) decider.set(w, (await createUser(t, w, UserType.ADMIN)).token);
    [a, b, c] = [(await createUser(t, ws, UserType.EMPLOYEE)).id, (await createUser(t, ws, UserType.EMPLOYEE)).id, (await createUser(t, ws, UserType.EMPLOYEE)).id];
    await leave(ws, a, 2, 4, 'approve');
    await leave(ws, a, 6, 6, 'approve', true);
    await leave(ws, a, 8, 9, 'open');
    await leave(ws, b, 3, 3, 'reject');
    await leave(ws, b, 4, 5, 'cancel');
    await leave(ws, b, 9, 12, 'approve');
    await leave(ws, ws.adminId, 1, 1, 'approve'); // admins may have leave too
    const stranger = (await createUser(t, other, UserType.EMPLOYEE)).id;
    await leave(other, stranger, 1, 20, 'approve');
  });
  afterAll(() => t.close());

  const plain = (m: Map<number, Map<string, number>>) => Object.fromEntries([...m].map(([user, days]) => [user, Object.fromEntries(days)]));

  it('answers each user’s approved days in the range: 1 a day, 0.5 for a half day, clipped to the range', async () => {
    expect(plain(await approvedLeaveDays(em(), ws.organizationId, null, day(0), day(10)))).toEqual({
      [a]: { [day(2)]: 1, [day(3)]: 1, [day(4)]: 1, [day(6)]: 0.5 },
      [b]: { [day(9)]: 1, [day(10)]: 1 },
      [ws.adminId]: { [day(1)]: 1 },
    });
    expect(plain(await approvedLeaveDays(em(), ws.organizationId, null, day(3), day(3)))).toEqual({ [a]: { [day(3)]: 1 } });
  });

  it('keeps open, rejected and cancelled leaves out', async () => {
    const found = await approvedLeaveDays(em(), ws.organizationId, [a, b], day(3), day(8));
    expect(found.get(a)?.has(day(8))).toBe(false); // open
    expect(plain(found)).toEqual({ [a]: { [day(3)]: 1, [day(4)]: 1, [day(6)]: 0.5 } }); // b's days 3–5 were rejected or cancelled
  });

  it('reads only the users asked for, none for an empty list, and only the workspace’s', async () => {
    expect(plain(await approvedLeaveDays(em(), ws.organizationId, [b, c], day(0), day(30)))).toEqual({ [b]: { [day(9)]: 1, [day(10)]: 1, [day(11)]: 1, [day(12)]: 1 } });
    expect((await approvedLeaveDays(em(), ws.organizationId, [], day(0), day(30))).size).toBe(0);
    expect((await approvedLeaveDays(em(), ws.organizationId, [c], day(0), day(30))).size).toBe(0);
    const theirs = await approvedLeaveDays(em(), other.organizationId, null, day(0), day(30));
    expect([...theirs.keys()]).not.toContain(a);
    expect([...theirs.values()][0].size).toBe(20);
    // Naming another workspace's user finds nothing of theirs.
    expect((await approvedLeaveDays(em(), ws.organizationId, [...theirs.keys()], day(0), day(30))).size).toBe(0);
  });

  it('refuses bad ranges, naming the argument', async () => {
    await expect(approvedLeaveDays(em(), ws.organizationId, null, '2026-02-30', day(1))).rejects.toThrow(/^from must be a date/);
    await expect(approvedLeaveDays(em(), ws.organizationId, null, day(2), day(1))).rejects.toThrow('to must not be before from');
    await expect(approvedLeaveDays(em(), ws.organizationId, null, day(0), day(366))).rejects.toThrow(/^to must be at most 366 days/);
    await expect(approvedLeaveDays(em(), ws.organizationId, null, day(0), day(365))).resolves.toBeInstanceOf(Map);
    await expect(approvedLeaveDays(em(), 0, null, day(0), day(1))).rejects.toThrow(/organization id/);
  });
});
