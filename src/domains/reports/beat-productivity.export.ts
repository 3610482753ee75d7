import { Int } from 'type-graphql';
import { calendarDate } from '../../validation/rules';
import { defineExport, type ExportRow } from '../exports/export-source';
import { wallClockOf, workspaceTimeZone, workspaceToday } from '../workspace/local-day';
import { SCORE_WEIGHTS } from './beat-productivity.score';
import { beatProductivityOfDay, checkReportedEmployee } from './beat-productivity.service';
import type { BeatProductivityRow } from './beat-productivity.types';

type Filters = { date?: string; userId?: number };

const LEAVE = (fraction: number) => (fraction >= 1 ? 'All day' : fraction > 0 ? 'Half day' : null);

/** "Shop closed 3; Owner absent 1; (no reason) 1". */
const reasonCounts = (row: BeatProductivityRow) => row.noSaleReasons.map((r) => `${r.name ?? '(no reason)'} ${r.count}`).join('; ');

/** A component's points, or null when the day is not scored. */
const pointsOf = (row: BeatProductivityRow, name: keyof typeof SCORE_WEIGHTS) => row.components.find((c) => c.name === name)?.points ?? null;

function exportRow(row: BeatProductivityRow, wallClock: (instant: Date) => string): ExportRow {
  return {
    date: row.date,
    employee: row.userName,
    route: row.routeName,
    on_leave: LEAVE(row.onLeave),
    planned_calls: row.plannedCalls,
    total_calls: row.totalCalls,
    productive_calls: row.productiveCalls,
    geo_verified_calls: row.geoVerifiedCalls,
    phone_calls: row.phoneCalls,
    call_rate: row.callRate,
    strike_rate: row.strikeRate,
    lines_per_call: row.linesPerCall,
    order_value: row.orderValue,
    first_check_in: row.firstCheckIn && wallClock(row.firstCheckIn),
    last_check_out: row.lastCheckOut && wallClock(row.lastCheckOut),
    time_in_field: row.timeInFieldMinutes,
    no_sale_reasons: reasonCounts(row),
    score: row.score,
    coverage_points: pointsOf(row, 'coverage'),
    strike_points: pointsOf(row, 'strike_rate'),
    geo_points: pointsOf(row, 'geo_verification'),
    lines_points: pointsOf(row, 'lines_per_call'),
    time_points: pointsOf(row, 'time_in_field'),
    reasons: row.reasons.join(' '),
  };
}

const weight = (name: keyof typeof SCORE_WEIGHTS) => SCORE_WEIGHTS[name].weight;

/**
 * GET /exports/beat-productivity: the beat-productivity report of one day (default: the workspace's
 * today, fixed when asked), a row per employee with the score's points by component. Its rows are the
 * report's own (computed, at most one per active employee).
 */
export const beatProductivityExport = defineExport<Filters>({
  kind: 'beat-productivity',
  description: 'one row per employee with a beat plan or a visit on the day, scored',
  title: 'Beat productivity',
  filters: {
    date: { graphqlType: () => String, description: 'the day, YYYY-MM-DD (default: today, the workspace’s local day)', check: (name, value) => ({ value: calendarDate(name, value) }) },
    userId: {
      graphqlType: () => Int,
      description: 'one employee',
      check: async (name, value, scope) => ({ value, label: await checkReportedEmployee(scope.em, scope.organizationId, name, value) }),
    },
  },
  async defaults(scope, filters) {
    return filters.date === undefined ? { date: await workspaceToday(scope.em, scope.organizationId) } : {};
  },
  orientation: 'landscape',
  columns: [
    // The day is on the title lines; a PDF leaves out the date and phone-call columns for room.
    { key: 'date', header: 'Date', type: 'date', width: 11, printed: false },
    { key: 'employee', header: 'Employee', type: 'text', width: 14 },
    { key: 'route', header: 'Route', type: 'text', width: 12 },
    { key: 'on_leave', header: 'Leave', type: 'text', width: 8 },
    { key: 'planned_calls', header: 'Planned', type: 'integer', width: 11, total: true },
    { key: 'total_calls', header: 'Calls', type: 'integer', width: 7, total: true },
    { key: 'productive_calls', header: 'Productive', type: 'integer', width: 13, total: true },
    { key: 'geo_verified_calls', header: 'Geo-verified', type: 'integer', width: 16, total: true },
    { key: 'phone_calls', header: 'Phone calls', type: 'integer', width: 7, total: true, printed: false },
    { key: 'call_rate', header: 'Call rate %', type: 'quantity', width: 7 },
    { key: 'strike_rate', header: 'Strike rate %', type: 'quantity', width: 8 },
    { key: 'lines_per_call', header: 'Lines per call', type: 'quantity', width: 8 },
    { key: 'order_value', header: 'Order value', type: 'money', width: 11, total: true },
    { key: 'first_check_in', header: 'First check-in', type: 'datetime', width: 14 },
    { key: 'last_check_out', header: 'Last check-out', type: 'datetime', width: 14 },
    { key: 'time_in_field', header: 'Minutes in field', type: 'integer', width: 12 },
    { key: 'no_sale_reasons', header: 'No-sale reasons', type: 'text', width: 12 },
    { key: 'score', header: 'Score', type: 'quantity', width: 9 },
    { key: 'coverage_points', header: `Coverage of ${weight('coverage')}`, type: 'quantity', width: 13 },
    { key: 'strike_points', header: `Strike of ${weight('strike_rate')}`, type: 'quantity', width: 8 },
    { key: 'geo_points', header: `Geo of ${weight('geo_verification')}`, type: 'quantity', width: 8 },
    { key: 'lines_points', header: `Lines of ${weight('lines_per_call')}`, type: 'quantity', width: 8 },
    { key: 'time_points', header: `Time of ${weight('time_in_field')}`, type: 'quantity', width: 8 },
    { key: 'reasons', header: 'Why the score is low', type: 'text', width: 24 },
  ],
  async computedRows(scope, filters) {
    const report = await beatProductivityOfDay(scope.em, scope.organizationId, filters.date!, filters.userId ?? null);
    const wallClock = wallClockOf(await workspaceTimeZone(scope.em, scope.organizationId));
    return { rows: report.rows.map((row) => exportRow(row, wallClock)) };
  },
  describe(filters, labels) {
    return [`Day: ${filters.date}`, ...(filters.userId !== undefined ? [`Employee: ${labels.userId ?? filters.userId}`] : [])];
  },
});
