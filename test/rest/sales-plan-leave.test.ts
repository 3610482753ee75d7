import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/*
 * The achievement reads approved leave through leaveDaysOf (src/domains/sales-plan/leave-source.ts),
 * which the leaves domain will answer once merged. Here it answers a fixed leave map, to show that
 * the achievement asks for the right employees and period and pro-rates over what it gets.
 */
const leaveDaysOf = vi.hoisted(() => vi.fn());
vi.mock('../../src/domains/sales-plan/leave-source', () => ({ leaveDaysOf }));

describe('sales plan achievement with approved leave', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('takes leave on working days off the days a target is spread over', async () => {
    const ws = await createWorkspace(t);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/sales-plan/targets',
      token: ws.token,
      payload: { user_id: employee.id, period_type: 1, period_start: '2099-01-01', target_amount: 2550, target_quantity: 51 },
    });
    expect(res.statusCode, res.body).toBe(201);
    // January 2099 starts on a Thursday: 27 working days (Monday to Saturday).
    leaveDaysOf.mockResolvedValue(
      new Map([
        [
          employee.id,
          new Map([
            ['2099-01-04', 1], // a Sunday: not a working day, ignored
            ['2099-01-05', 1], // Monday
            ['2099-01-06', 0.5], // Tuesday, half day
          ]),
        ],
      ]),
    );
    const answer = await t.request({ method: 'GET', url: '/api/v1/sales-plan/achievement?period=2099-01', token: employee.token });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(leaveDaysOf).toHaveBeenCalledWith(expect.anything(), ws.organizationId, [employee.id], '2099-01-01', '2099-01-31');
    // 27 − 1.5 = 25.5 days available: 2,550 / 25.5 = 100 a day, 51 / 25.5 = 2 a day.
    expect(answer.json().data.targets).toEqual([
      expect.objectContaining({
        working_days: 27,
        working_days_elapsed: 0,
        working_days_remaining: 27,
        leave_days: 1.5,
        amount: { target: 2550, achieved: 0, achievement_pct: 0, expected_to_date: 0, run_rate_needed: 100 },
        quantity: { target: 51, achieved: 0, achievement_pct: 0, expected_to_date: 0, run_rate_needed: 2 },
      }),
    ]);
  });
});
