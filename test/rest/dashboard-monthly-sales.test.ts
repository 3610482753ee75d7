import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { salesPeriods } from '../../src/domains/dashboard/sales-periods';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace, placeOrder, unique, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

/**
 * "Today" of the service, pinned by the tests that check hand-computed numbers on fixed dates
 * (a leap day, the first days of January); null means the real clock (the workspace's local day
 * by the database's clock), which the other tests use.
 */
const clock = vi.hoisted(() => ({ today: null as string | null }));
vi.mock('../../src/domains/workspace/local-day', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/domains/workspace/local-day')>();
  return {
    ...actual,
    workspaceToday: (...args: Parameters<typeof actual.workspaceToday>) => (clock.today === null ? actual.workspaceToday(...args) : Promise.resolve(clock.today)),
  };
});

interface Entry {
  id: number;
  product_class: string;
  unit: string;
  today_total: number;
  yesterday_total: number;
  daily_change_percent: number;
  daily_change_status: string;
  month_data: number;
  month_data_avg: number;
  current_year_data: number;
  prev_year_data: number;
  yearly_change_percent: number;
  yearly_change_status: string;
  seven_day_data: Array<{ date: string; year: number; month: number; day: number; total: number }>;
  product_breakdown: Array<{ product_name: string; quantity: number }>;
}

/** The local date (YYYY-MM-DD) and time (HH:MM) in a time zone now. */
function localNow(timeZone: string): { date: string; minutes: number } {
  const now = new Date();
  const date = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now).split(':').map(Number);
  return { date, minutes: h * 60 + m };
}

/** The first zone whose local time is at least 20 minutes from midnight (a test takes seconds), and that passes `also`. */
function zoneAwayFromMidnight(candidates: string[], also: (zone: string) => boolean = () => true): string {
  const zone = candidates.find((z) => {
    const { minutes } = localNow(z);
    return minutes >= 20 && minutes <= 24 * 60 - 20 && also(z);
  });
  if (!zone) throw new Error(`no zone of ${candidates.join(', ')} fits now`);
  return zone;
}

/** `day` moved by `days`, computed the plain way (UTC calendar arithmetic). */
function addDays(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A day of seven_day_data, the month zero-based. */
const dayOf = (date: string, total: number) => ({ date, year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) - 1, day: Number(date.slice(8, 10)), total });

/** The fields of a class without any sales in the periods counted. */
const NO_SALES = {
  today_total: 0,
  yesterday_total: 0,
  daily_change_percent: 0,
  daily_change_status: 'same',
  month_data: 0,
  month_data_avg: 0,
  current_year_data: 0,
  prev_year_data: 0,
  yearly_change_percent: 0,
  yearly_change_status: 'same',
  product_breakdown: [],
};

describe('GET /dashboard/monthly-sales', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const monthlySales = (credential: { token?: string; apiKey?: string }) =>
    t.request({ method: 'GET', url: '/api/v1/dashboard/monthly-sales', ...credential });

  async function fetchEntries(ws: Workspace): Promise<Entry[]> {
    const res = await monthlySales({ token: ws.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'response_code']);
    expect(body.response_code).toBe(200);
    return body.data;
  }

  async function setZone(ws: Workspace, timeZone: string): Promise<void> {
    const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/config', token: ws.token, payload: { time_zone: timeZone } });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A product class (unit given) of the workspace; returns its id. */
  async function productClass(ws: Workspace, name: string, unit: string): Promise<number> {
    const res = await t.request({ method: 'POST', url: '/api/v1/masters/product-classes', token: ws.token, payload: { product_class: name, unit } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }

  /** Deactivates the class, and first its products (a class with active products stays active: 409). */
  async function deactivateClass(ws: Workspace, id: number): Promise<void> {
    const products = await t.request({ method: 'GET', url: `/api/v1/products?limit=100&product_class_id=${id}`, token: ws.token });
    for (const { id: productId } of products.json().data as Array<{ id: number }>) {
      const retired = await t.request({ method: 'PUT', url: `/api/v1/products/${productId}`, token: ws.token, payload: { status: 0 } });
      expect(retired.statusCode, retired.body).toBe(200);
    }
    const res = await t.request({ method: 'PUT', url: `/api/v1/masters/product-classes/${id}`, token: ws.token, payload: { status: 0 } });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A product of the class with one variant per given unit_quantity; returns the variant ids. */
  async function product(ws: Workspace, classId: number, name: string, unitQuantities: number[]): Promise<number[]> {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/products',
      token: ws.token,
      payload: {
        product_name: name,
        product_class_id: classId,
        variants: unitQuantities.map((q) => ({ variant_name: `${q}`, item_sku_code: `SKU-${unique()}`, mrp: 10, sp: 10, unit_quantity: q })),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const variants = res.json().data.ProductVariants as Array<{ id: number; unit_quantity: number }>;
    expect(variants.map((v) => v.unit_quantity)).toEqual(unitQuantities);
    return variants.map((v) => v.id);
  }

  /** Places an order dated `date` with the given lines ([variant id, quantity]). */
  async function order(ws: Workspace, customerId: number, date: string, lines: Array<[number, number]>): Promise<number> {
    const placed = await placeOrder(t, ws.token, {
      user_id: customerId,
      order_date: date,
      items: lines.map(([variant, quantity]) => ({ product_variant_id: variant, quantity })),
    });
    expect(placed.order_date).toBe(date);
    return placed.id;
  }

  async function deliver(ws: Workspace, orderId: number): Promise<void> {
    for (const status of [2, 3, 4]) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/orders/${orderId}/status`, token: ws.token, payload: { order_status: status } });
      expect(res.statusCode, res.body).toBe(200);
    }
  }

  it('is an empty list for a workspace without product classes', async () => {
    const ws = await createWorkspace(t);
    expect(await fetchEntries(ws)).toEqual([]);
    const gql = await t.graphql<{ monthlySales: unknown[] }>('{ monthlySales { id } }', {}, ws.token);
    expect(gql.errors).toBeUndefined();
    expect(gql.data?.monthlySales).toEqual([]);
  });

  describe('on a leap day (2024-02-29, pinned): every field by hand', () => {
    let ws: Workspace;
    let other: Workspace;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      ws = await createWorkspace(t);
      await setZone(ws, 'Asia/Kolkata');
      const customer = (await createUser(t, ws, UserType.DISTRIBUTOR)).id;
      const retailer = (await createUser(t, ws, UserType.RETAILER)).id;

      // Created out of name order: the answer is ordered by class name.
      ids.milk = await productClass(ws, 'Milk', 'litre');
      ids.curd = await productClass(ws, 'Curd', 'kg');
      ids.ghee = await productClass(ws, 'Ghee', 'kg');
      ids.paneer = await productClass(ws, 'Old Paneer', 'kg');
      ids.retired = await productClass(ws, 'Retired Butter', 'kg');
      ids.unused = await productClass(ws, 'Discontinued', 'piece');
      ids.butter = await productClass(ws, 'Butter', 'kg');

      const [tm500, tm1000] = await product(ws, ids.milk, 'Toned Milk', [0.5, 1]);
      const [fc200] = await product(ws, ids.milk, 'Full Cream', [0.2]);
      const [sk250] = await product(ws, ids.milk, 'Skimmed', [0.25]);
      // Dahi Tub before Curd Cup: equal quantities are ordered by name, not by id.
      const [dt1] = await product(ws, ids.curd, 'Dahi Tub', [1]);
      const [cc400] = await product(ws, ids.curd, 'Curd Cup', [0.4]);
      const [bc] = await product(ws, ids.curd, 'Bulk Curd', [2.5]);
      const [jar] = await product(ws, ids.ghee, 'Ghee Jar', [0.125]);
      const [pn] = await product(ws, ids.paneer, 'Paneer Block', [0.25]);
      const [rb] = await product(ws, ids.retired, 'Retired Block', [1]);
      await product(ws, ids.butter, 'Butter Pack', [0.1]);

      // Milk (litre). Today 6 × 0.5 + 5 × 0.2 = 4 (one order of two lines, delivered: any status counts).
      await deliver(ws, await order(ws, customer, '2024-02-29', [[tm500, 6], [fc200, 5]]));
      await order(ws, retailer, '2024-02-28', [[tm1000, 5]]); // yesterday: 5
      await order(ws, customer, '2024-02-22', [[tm1000, 3]]); // 7 days ago: in the month, not in the seven days: 3
      await order(ws, customer, '2024-02-01', [[tm500, 3]]); // the 1st: 1.5
      await order(ws, customer, '2024-01-31', [[fc200, 10]]); // last month, this year: 2
      await order(ws, customer, '2023-02-28', [[tm1000, 2]]); // last year, the same day (Feb 29 → Feb 28): 2
      await order(ws, customer, '2023-03-01', [[tm1000, 100]]); // last year after that day: not counted
      await order(ws, customer, '2023-01-01', [[sk250, 4]]); // last year Jan 1: 1
      await order(ws, customer, '2022-12-31', [[tm1000, 1000]]); // before last year: not counted

      // Curd (kg). Today 5 × 0.4 + 1 × 1 = 3 (two orders), nothing yesterday.
      await order(ws, customer, '2024-02-29', [[cc400, 5]]);
      await order(ws, retailer, '2024-02-29', [[dt1, 1]]);
      await order(ws, customer, '2024-02-23', [[dt1, 5]]); // 6 days ago, the first of the seven: 5
      await order(ws, customer, '2024-02-10', [[cc400, 10]]); // 4
      await order(ws, customer, '2024-01-15', [[bc, 2]]); // 5, not this month
      await order(ws, customer, '2023-02-15', [[dt1, 10]]); // last year: 10

      // Ghee (kg): equal non-zero numbers; three decimals.
      await order(ws, customer, '2024-02-29', [[jar, 3]]); // 0.375
      await order(ws, customer, '2024-02-28', [[jar, 3]]); // 0.375
      await order(ws, customer, '2023-01-10', [[jar, 6]]); // 0.75

      // Old Paneer (kg), made inactive: sold in last year's period only, so it still shows.
      await order(ws, customer, '2023-02-28', [[pn, 4]]); // 1
      // Retired Butter (kg), made inactive: sold only outside the periods, so it does not show.
      await order(ws, customer, '2023-03-01', [[rb, 1]]);
      await order(ws, customer, '2022-06-01', [[rb, 1]]);
      await deactivateClass(ws, ids.paneer);
      await deactivateClass(ws, ids.retired);
      await deactivateClass(ws, ids.unused);

      // Another workspace sells on the same days; none of it counts here.
      other = await createWorkspace(t);
      const otherCustomer = (await createUser(t, other, UserType.DISTRIBUTOR)).id;
      const otherMilk = await productClass(other, 'Milk', 'litre');
      const [otherVariant] = await product(other, otherMilk, 'Toned Milk', [1]);
      for (const day of ['2024-02-29', '2024-02-28', '2024-02-10', '2023-02-28']) await order(other, otherCustomer, day, [[otherVariant, 1000]]);
    });

    const expected = (): Entry[] => [
      {
        id: ids.butter,
        product_class: 'Butter',
        unit: 'kg',
        ...NO_SALES,
        seven_day_data: ['2024-02-23', '2024-02-24', '2024-02-25', '2024-02-26', '2024-02-27', '2024-02-28', '2024-02-29'].map((d) => dayOf(d, 0)),
      },
      {
        id: ids.curd,
        product_class: 'Curd',
        unit: 'kg',
        today_total: 3,
        yesterday_total: 0,
        daily_change_percent: 100, // yesterday 0, today more
        daily_change_status: 'up',
        month_data: 12, // 3 + 5 + 4
        month_data_avg: 0.41, // 12 / 29 = 0.4137…
        current_year_data: 17, // 12 + 5
        prev_year_data: 10,
        yearly_change_percent: 70,
        yearly_change_status: 'up',
        seven_day_data: [
          { date: '2024-02-23', year: 2024, month: 1, day: 23, total: 5 },
          { date: '2024-02-24', year: 2024, month: 1, day: 24, total: 0 },
          { date: '2024-02-25', year: 2024, month: 1, day: 25, total: 0 },
          { date: '2024-02-26', year: 2024, month: 1, day: 26, total: 0 },
          { date: '2024-02-27', year: 2024, month: 1, day: 27, total: 0 },
          { date: '2024-02-28', year: 2024, month: 1, day: 28, total: 0 },
          { date: '2024-02-29', year: 2024, month: 1, day: 29, total: 3 },
        ],
        product_breakdown: [
          { product_name: 'Curd Cup', quantity: 6 }, // 2 + 4
          { product_name: 'Dahi Tub', quantity: 6 }, // 1 + 5
        ],
      },
      {
        id: ids.ghee,
        product_class: 'Ghee',
        unit: 'kg',
        today_total: 0.375,
        yesterday_total: 0.375,
        daily_change_percent: 0,
        daily_change_status: 'same',
        month_data: 0.75,
        month_data_avg: 0.03, // 0.75 / 29 = 0.0258…
        current_year_data: 0.75,
        prev_year_data: 0.75,
        yearly_change_percent: 0,
        yearly_change_status: 'same',
        seven_day_data: [
          dayOf('2024-02-23', 0),
          dayOf('2024-02-24', 0),
          dayOf('2024-02-25', 0),
          dayOf('2024-02-26', 0),
          dayOf('2024-02-27', 0),
          dayOf('2024-02-28', 0.375),
          dayOf('2024-02-29', 0.375),
        ],
        product_breakdown: [{ product_name: 'Ghee Jar', quantity: 0.75 }],
      },
      {
        id: ids.milk,
        product_class: 'Milk',
        unit: 'litre',
        today_total: 4,
        yesterday_total: 5,
        daily_change_percent: -20,
        daily_change_status: 'down',
        month_data: 13.5, // 4 + 5 + 3 + 1.5
        month_data_avg: 0.47, // 13.5 / 29 = 0.4655…
        current_year_data: 15.5, // + 2 on Jan 31
        prev_year_data: 3, // 2 on 2023-02-28 + 1 on 2023-01-01
        yearly_change_percent: 416.67, // 12.5 / 3 × 100 = 416.666…
        yearly_change_status: 'up',
        seven_day_data: [
          dayOf('2024-02-23', 0),
          dayOf('2024-02-24', 0),
          dayOf('2024-02-25', 0),
          dayOf('2024-02-26', 0),
          dayOf('2024-02-27', 0),
          dayOf('2024-02-28', 5),
          dayOf('2024-02-29', 4),
        ],
        product_breakdown: [
          { product_name: 'Toned Milk', quantity: 12.5 }, // 3 + 5 + 3 + 1.5: the largest first, though its name sorts last
          { product_name: 'Full Cream', quantity: 1 },
        ],
      },
      {
        id: ids.paneer,
        product_class: 'Old Paneer',
        unit: 'kg',
        ...NO_SALES,
        prev_year_data: 1,
        yearly_change_percent: -100,
        yearly_change_status: 'down',
        seven_day_data: ['2024-02-23', '2024-02-24', '2024-02-25', '2024-02-26', '2024-02-27', '2024-02-28', '2024-02-29'].map((d) => dayOf(d, 0)),
      },
    ];

    it('answers every class by name with the numbers worked out by hand', async () => {
      clock.today = '2024-02-29';
      try {
        expect(await fetchEntries(ws)).toEqual(expected());
      } finally {
        clock.today = null;
      }
    });

    it('GraphQL monthlySales gives the same numbers in camelCase, the statuses as the ChangeStatus enum', async () => {
      clock.today = '2024-02-29';
      try {
        const gql = await t.graphql<{ monthlySales: Array<Record<string, unknown>> }>(
          `{ monthlySales { id productClass unit todayTotal yesterdayTotal dailyChangePercent dailyChangeStatus monthData monthDataAvg
             currentYearData prevYearData yearlyChangePercent yearlyChangeStatus sevenDayData { date year month day total }
             productBreakdown { productName quantity } } }`,
          {},
          ws.token,
        );
        expect(gql.errors).toBeUndefined();
        const status = (s: string) => s.toUpperCase();
        expect(gql.data?.monthlySales).toEqual(
          expected().map((e) => ({
            id: e.id,
            productClass: e.product_class,
            unit: e.unit,
            todayTotal: e.today_total,
            yesterdayTotal: e.yesterday_total,
            dailyChangePercent: e.daily_change_percent,
            dailyChangeStatus: status(e.daily_change_status),
            monthData: e.month_data,
            monthDataAvg: e.month_data_avg,
            currentYearData: e.current_year_data,
            prevYearData: e.prev_year_data,
            yearlyChangePercent: e.yearly_change_percent,
            yearlyChangeStatus: status(e.yearly_change_status),
            sevenDayData: e.seven_day_data,
            productBreakdown: e.product_breakdown.map((p) => ({ productName: p.product_name, quantity: p.quantity })),
          })),
        );
      } finally {
        clock.today = null;
      }
    });

    it("the other workspace sees only its own class and sales", async () => {
      clock.today = '2024-02-29';
      try {
        const [entry, ...rest] = await fetchEntries(other);
        expect(rest).toEqual([]);
        expect(entry).toMatchObject({ product_class: 'Milk', today_total: 1000, yesterday_total: 1000, month_data: 3000, current_year_data: 3000, prev_year_data: 1000 });
      } finally {
        clock.today = null;
      }
    });
  });

  it('in early January (2025-01-03, pinned) the seven days reach into December, month zero-based', async () => {
    const ws = await createWorkspace(t);
    await setZone(ws, 'Asia/Kolkata');
    const customer = (await createUser(t, ws, UserType.DISTRIBUTOR)).id;
    const milk = await productClass(ws, 'Milk', 'litre');
    const winter = await productClass(ws, 'Winter Special', 'piece');
    const [half, litre] = await product(ws, milk, 'Toned Milk', [0.5, 1]);
    const [piece] = await product(ws, winter, 'Plum Cake', [1]);
    await order(ws, customer, '2025-01-03', [[half, 2]]); // today: 1
    await order(ws, customer, '2025-01-02', [[half, 4]]); // yesterday: 2
    await order(ws, customer, '2024-12-31', [[litre, 3]]); // in the seven days only: 3
    await order(ws, customer, '2024-12-27', [[litre, 10]]); // 7 days ago: nowhere
    await order(ws, customer, '2024-01-03', [[litre, 1]]); // last year, the same day: 1
    await order(ws, customer, '2024-01-04', [[litre, 50]]); // last year, the day after: not counted
    await order(ws, customer, '2024-12-30', [[piece, 5]]); // the inactive class sold within the seven days
    await deactivateClass(ws, winter);

    clock.today = '2025-01-03';
    let entries: Entry[];
    try {
      entries = await fetchEntries(ws);
    } finally {
      clock.today = null;
    }
    const week = (totals: number[]) =>
      ['2024-12-28', '2024-12-29', '2024-12-30', '2024-12-31', '2025-01-01', '2025-01-02', '2025-01-03'].map((d, i) => dayOf(d, totals[i]));
    expect(entries).toEqual([
      {
        id: milk,
        product_class: 'Milk',
        unit: 'litre',
        today_total: 1,
        yesterday_total: 2,
        daily_change_percent: -50,
        daily_change_status: 'down',
        month_data: 3,
        month_data_avg: 1, // 3 / 3 days
        current_year_data: 3,
        prev_year_data: 1,
        yearly_change_percent: 200,
        yearly_change_status: 'up',
        seven_day_data: week([0, 0, 0, 3, 0, 2, 1]),
        product_breakdown: [{ product_name: 'Toned Milk', quantity: 3 }],
      },
      { id: winter, product_class: 'Winter Special', unit: 'piece', ...NO_SALES, seven_day_data: week([0, 0, 5, 0, 0, 0, 0]) },
    ]);
    expect(entries[0].seven_day_data.map((d) => d.month)).toEqual([11, 11, 11, 11, 0, 0, 0]);
  });

  it('by the real clock: "today" is the local day of the workspace’s time zone', async () => {
    // A zone whose date differs from UTC's right now when one is at hand, away from local midnight.
    const utcDate = new Date().toISOString().slice(0, 10);
    const zone = zoneAwayFromMidnight(
      ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata', 'America/New_York'],
      (z) => localNow(z).date !== utcDate,
    );
    const ws = await createWorkspace(t);
    await setZone(ws, zone);
    const today = localNow(zone).date;
    const yesterday = addDays(today, -1);
    const eightDaysAgo = addDays(today, -8);
    const [year, month, day] = today.split('-').map(Number);
    const lastYearSameDay = `${year - 1}-${today.slice(5, 7)}-${String(Math.min(day, new Date(Date.UTC(year - 1, month, 0)).getUTCDate())).padStart(2, '0')}`;
    const lastYearDayAfter = addDays(lastYearSameDay, 1);

    const customer = (await createUser(t, ws, UserType.DISTRIBUTOR)).id;
    const milk = await productClass(ws, 'Milk', 'litre');
    const [half, litre] = await product(ws, milk, 'Toned Milk', [0.5, 1]);
    await order(ws, customer, today, [[half, 3]]); // 1.5
    await order(ws, customer, yesterday, [[litre, 2]]); // 2
    await order(ws, customer, eightDaysAgo, [[litre, 10]]); // not in the seven days
    await order(ws, customer, lastYearSameDay, [[half, 4]]); // 2
    if (lastYearDayAfter.startsWith(String(year - 1))) await order(ws, customer, lastYearDayAfter, [[litre, 7]]); // not counted

    const [entry, ...rest] = await fetchEntries(ws);
    expect(rest).toEqual([]);
    // Yesterday and eight days ago count in the month and the year only when they fall in them.
    const monthStart = `${today.slice(0, 8)}01`;
    const yearStart = `${year}-01-01`;
    const within = (date: string, from: string) => date >= from;
    const monthData = 1.5 + (within(yesterday, monthStart) ? 2 : 0) + (within(eightDaysAgo, monthStart) ? 10 : 0);
    const yearData = 1.5 + (within(yesterday, yearStart) ? 2 : 0) + (within(eightDaysAgo, yearStart) ? 10 : 0);
    expect(entry).toEqual({
      id: milk,
      product_class: 'Milk',
      unit: 'litre',
      today_total: 1.5,
      yesterday_total: 2,
      daily_change_percent: -25,
      daily_change_status: 'down',
      month_data: monthData,
      month_data_avg: Math.round((monthData * 1000) / (day * 10)) / 100, // in whole thousandths: no binary fractions
      current_year_data: yearData,
      prev_year_data: 2,
      yearly_change_percent: (yearData - 2) * 50, // (yearData − 2) / 2 × 100: -25, 75, 475 or 575, exact
      yearly_change_status: yearData > 2 ? 'up' : yearData < 2 ? 'down' : 'same',
      seven_day_data: [6, 5, 4, 3, 2, 1, 0].map((back) => dayOf(addDays(today, -back), back === 0 ? 1.5 : back === 1 ? 2 : 0)),
      product_breakdown: [{ product_name: 'Toned Milk', quantity: monthData }],
    });
  });

  it('staff and API keys with the dashboard scope may read it; customers and other scopes may not', async () => {
    const ws = await createWorkspace(t);
    await productClass(ws, 'Milk', 'litre');
    const admin = await monthlySales({ token: ws.token });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().data).toHaveLength(1);

    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expect((await monthlySales({ token: employee.token })).json().data).toEqual(admin.json().data);
    const key = await createApiKey(t, ws, { scopes: 'dashboard' });
    const byKey = await monthlySales({ apiKey: key.key });
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().data).toEqual(admin.json().data);
    const gqlByKey = await t.graphql<{ monthlySales: Array<{ productClass: string }> }>('{ monthlySales { productClass } }', {}, { apiKey: key.key });
    expect(gqlByKey.data?.monthlySales).toEqual([{ productClass: 'Milk' }]);

    const ordersKey = await createApiKey(t, ws, { scopes: 'orders' });
    expect((await monthlySales({ apiKey: ordersKey.key })).statusCode).toBe(403);

    for (const type of [UserType.DISTRIBUTOR, UserType.RETAILER]) {
      const customer = await createUser(t, ws, type);
      const res = await monthlySales({ token: customer.token });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
      const gql = await t.graphql('{ monthlySales { id } }', {}, customer.token);
      expect(gql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect((await monthlySales({})).statusCode).toBe(401);
  });

  it('costs two SQL statements (the local day, then the aggregates), whatever the amount of data', async () => {
    const ws = await createWorkspace(t);
    const customer = (await createUser(t, ws, UserType.DISTRIBUTOR)).id;
    for (const name of ['A', 'B', 'C']) {
      const cls = await productClass(ws, name, 'kg');
      const variants = await product(ws, cls, `${name} product`, [0.5, 1]);
      await order(ws, customer, '2020-01-01', variants.map((v) => [v, 1]));
    }
    t.queries.reset();
    expect((await monthlySales({ token: ws.token })).statusCode).toBe(200);
    const statements = t.queries.statements.filter((s) => /select|insert|update/i.test(s) && !/app_user u join organization/.test(s));
    expect(statements).toHaveLength(2);
  });
});

describe('monthly sales periods', () => {
  it('last year’s period ends on the same month and day; Feb 29 becomes Feb 28', () => {
    expect(salesPeriods('2024-02-29')).toEqual({
      today: '2024-02-29',
      yesterday: '2024-02-28',
      monthStart: '2024-02-01',
      monthDays: 29,
      yearStart: '2024-01-01',
      prevYearStart: '2023-01-01',
      prevYearEnd: '2023-02-28',
      lastSevenDays: ['2024-02-23', '2024-02-24', '2024-02-25', '2024-02-26', '2024-02-27', '2024-02-28', '2024-02-29'],
    });
    expect(salesPeriods('2025-03-01')).toMatchObject({ yesterday: '2025-02-28', monthDays: 1, prevYearEnd: '2024-03-01' });
    expect(salesPeriods('2025-01-01')).toMatchObject({ yesterday: '2024-12-31', monthStart: '2025-01-01', prevYearEnd: '2024-01-01' });
    expect(salesPeriods('2025-12-31')).toMatchObject({ monthDays: 31, prevYearEnd: '2024-12-31' });
  });
});
