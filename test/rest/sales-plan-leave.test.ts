import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/** `YYYY-MM-DD` of a UTC date. */
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The second Monday of the month after next (always ahead of today, and within the year leave may be
 * applied for), and the Sunday before it, both inside that month.
 */
function futureMonth(): { start: string; end: string; period: string; sunday: string; monday: string; tuesday: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const firstMonday = new Date(first);
  while (firstMonday.getUTCDay() !== 1) firstMonday.setUTCDate(firstMonday.getUTCDate() + 1);
  const monday = new Date(firstMonday);
  monday.setUTCDate(monday.getUTCDate() + 7);
  const shift = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
  return { start: day(first), end: day(last), period: day(first).slice(0, 7), sunday: day(shift(monday, -1)), monday: day(monday), tuesday: day(shift(monday, 1)) };
}

describe('sales plan achievement with approved leave', () => {
  let t: TestApp;
  let ws: Workspace;
  const month = futureMonth();

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
  });
  afterAll(() => t.close());

  /** An employee with a 2,550 / 51 monthly target for the month. */
  async function employeeWithTarget() {
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/sales-plan/targets',
      token: ws.token,
      payload: { user_id: employee.id, period_type: 1, period_start: month.start, target_amount: 2550, target_quantity: 51 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return employee;
  }

  async function leave(token: string, from: string, to: string, halfDay = false, approve = true): Promise<void> {
    const applied = await t.request({ method: 'POST', url: '/api/v1/leaves', token, payload: { leave_type: 1, from_date: from, to_date: to, half_day: halfDay, reason: 'Family' } });
    expect(applied.statusCode, applied.body).toBe(201);
    if (!approve) return;
    const approved = await t.request({ method: 'POST', url: `/api/v1/leaves/${applied.json().data.id}/approve`, token: ws.token, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
  }

  const achievement = async (token: string) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/sales-plan/achievement?period=${month.period}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.targets[0];
  };

  it('takes approved leave on working days off the days a target is spread over; open leave and Sundays count for nothing', async () => {
    const away = await employeeWithTarget();
    const present = await employeeWithTarget();
    await leave(away.token, month.sunday, month.monday); // a Sunday (not a working day) and a Monday
    await leave(away.token, month.tuesday, month.tuesday, true); // half of a Tuesday
    await leave(present.token, month.monday, month.monday, false, false); // open, not approved

    const full = await achievement(present.token);
    expect(full).toMatchObject({ working_days_elapsed: 0, leave_days: 0 });
    expect(full.working_days).toBe(full.working_days_remaining);
    expect(full.amount.run_rate_needed).toBeCloseTo(2550 / full.working_days, 2);

    const reduced = await achievement(away.token);
    expect(reduced).toMatchObject({ working_days: full.working_days, leave_days: 1.5 });
    expect(reduced.amount.run_rate_needed).toBeCloseTo(2550 / (full.working_days - 1.5), 2);
    expect(reduced.quantity.run_rate_needed).toBeCloseTo(51 / (full.working_days - 1.5), 2);
  });
});
