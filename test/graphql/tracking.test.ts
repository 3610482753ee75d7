import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createUser, createWorkspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { checkInBody, createOutlet } from '../helpers/visit-fixtures';
import { checkInHoursAgo, positionCount, secondsFromNow, todayIn, useNoonZone } from '../helpers/tracking-fixtures';

const TRACK = `mutation ($input: TrackPositionsInput!) { trackPositions(input: $input) { accepted rejected { index reason } checkedInAt } }`;
const LIVE = `query ($userId: Int, $onDuty: Boolean, $sort: [LivePositionSort!]) {
  livePositions(userId: $userId, onDuty: $onDuty, sort: $sort) {
    nodes { userId userName latitude longitude batteryPct isCharging stalenessSeconds onDuty currentVisitId recordedAt receivedAt }
    pageInfo { total }
  }
}`;
const TRAIL = `query ($userId: Int, $date: String) { trail(userId: $userId, date: $date) { userId date distanceM truncated points { latitude longitude recordedAt } } }`;

/** Live tracking over GraphQL: the same service as REST, camelCase fields. */
describe('tracking over GraphQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const fix = (secondsAgo: number, extra: Record<string, unknown> = {}) => ({ deviceTime: secondsFromNow(-secondsAgo), latitude: 12.9716, longitude: 77.5946, ...extra });

  it('tracks positions only while on duty, reporting skipped ones', async () => {
    const ws = await createWorkspace(t);
    await useNoonZone(t, ws);
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expectGraphqlError(await t.graphql(TRACK, { input: { positions: [fix(5)] } }, employee.token), 'CONFLICT', /^Not checked in today/);
    expect(await positionCount(t, ws)).toBe(0);

    await checkInHoursAgo(t, ws, employee);
    const done = expectGraphqlData(await t.graphql(TRACK, { input: { positions: [fix(4 * 3600), fix(60, { batteryPct: 40, isCharging: true }), fix(-3600)] } }, employee.token));
    expect(done.trackPositions).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, reason: 'before_check_in' },
        { index: 2, reason: 'in_future' },
      ],
      checkedInAt: expect.any(String),
    });

    // A malformed field refuses the batch, naming it in camelCase.
    for (const [bad, message] of [
      [{ latitude: -91 }, /^positions\[1\]\.latitude must be from -90 to 90$/],
      [{ batteryPct: 101 }, /^positions\[1\]\.batteryPct must be an integer from 0 to 100$/],
      [{ heading: -1 }, /^positions\[1\]\.heading /],
    ] as const) {
      expectGraphqlError(await t.graphql(TRACK, { input: { positions: [fix(20), fix(10, bad)] } }, employee.token), 'BAD_USER_INPUT', message);
    }
    const tooMany = Array.from({ length: 501 }, (_, i) => fix(i));
    expectGraphqlError(await t.graphql(TRACK, { input: { positions: tooMany } }, employee.token), 'BAD_USER_INPUT', 'positions must hold 1 to 500 positions');
    expectGraphqlError(await t.graphql(TRACK, { input: { positions: [] } }, employee.token), 'BAD_USER_INPUT', 'positions must hold 1 to 500 positions');
    expect(await positionCount(t, ws)).toBe(1);

    expect((await t.request({ method: 'POST', url: '/api/v1/attendance/check-out', token: employee.token })).statusCode).toBe(200);
    expectGraphqlError(await t.graphql(TRACK, { input: { positions: [fix(1)] } }, employee.token), 'CONFLICT', /^Checked out today/);

    const retailer = await createUser(t, ws, UserType.RETAILER);
    expectGraphqlError(await t.graphql(TRACK, { input: { positions: [fix(1)] } }, retailer.token), 'FORBIDDEN');
    expect(await positionCount(t, ws)).toBe(1);
  });

  it('answers the live map and the trail, by role and workspace', async () => {
    const ws = await createWorkspace(t);
    const zone = await useNoonZone(t, ws);
    const [a, b] = [await createUser(t, ws, UserType.EMPLOYEE), await createUser(t, ws, UserType.EMPLOYEE)];
    for (const user of [a, b]) await checkInHoursAgo(t, ws, user);
    expectGraphqlData(await t.graphql(TRACK, { input: { positions: [fix(300, { batteryPct: 20 }), fix(200, { latitude: 12.9816, batteryPct: 19 })] } }, a.token));
    expectGraphqlData(await t.graphql(TRACK, { input: { positions: [fix(100, { batteryPct: 77 })] } }, b.token));

    const map = expectGraphqlData(await t.graphql(LIVE, { sort: [{ field: 'BATTERY_PCT', direction: 'ASC' }] }, ws.token)).livePositions;
    expect(map.pageInfo.total).toBe(2);
    expect(map.nodes.map((n: { userId: number; batteryPct: number; onDuty: boolean }) => [n.userId, n.batteryPct, n.onDuty])).toEqual([
      [a.id, 19, true],
      [b.id, 77, true],
    ]);
    expect(map.nodes[0].stalenessSeconds).toBeGreaterThanOrEqual(199);
    expect(map.nodes[0].stalenessSeconds).toBeLessThan(260);
    expect(map.nodes[0].latitude).toBe(12.9816);
    expect(map.nodes.map((n: { currentVisitId: number | null }) => n.currentVisitId)).toEqual([null, null]);
    // b's visit in progress is b's current visit on the map.
    const outletId = await createOutlet(t, ws);
    const visit = await t.request({ method: 'POST', url: '/api/v1/visits/check-in', token: b.token, payload: checkInBody(outletId) });
    expect(visit.statusCode, visit.body).toBe(201);
    const withVisit = expectGraphqlData(await t.graphql(LIVE, { sort: [{ field: 'BATTERY_PCT', direction: 'ASC' }] }, ws.token)).livePositions;
    expect(withVisit.nodes.map((n: { userId: number; currentVisitId: number | null }) => [n.userId, n.currentVisitId])).toEqual([
      [a.id, null],
      [b.id, visit.json().data.id],
    ]);

    const own = expectGraphqlData(await t.graphql(LIVE, {}, b.token)).livePositions;
    expect(own.nodes.map((n: { userId: number }) => n.userId)).toEqual([b.id]);
    expectGraphqlError(await t.graphql(LIVE, { userId: a.id }, b.token), 'FORBIDDEN');
    const stranger = await createWorkspace(t);
    expectGraphqlError(await t.graphql(LIVE, { userId: stranger.adminId }, ws.token), 'BAD_USER_INPUT', 'userId does not name an employee or admin of this workspace');
    expect(expectGraphqlData(await t.graphql(LIVE, {}, stranger.token)).livePositions.pageInfo.total).toBe(0);

    const day = expectGraphqlData(await t.graphql(TRAIL, { userId: a.id }, ws.token)).trail;
    expect(day).toMatchObject({ userId: a.id, date: todayIn(zone), truncated: false });
    expect(day.points.map((p: { latitude: number }) => p.latitude)).toEqual([12.9716, 12.9816]);
    expect(day.distanceM).toBeGreaterThan(1_100); // 0.01° of latitude ≈ 1,112 m
    expect(day.distanceM).toBeLessThan(1_125);
    expectGraphqlError(await t.graphql(TRAIL, { userId: a.id }, stranger.token), 'NOT_FOUND', `User ${a.id} not found`);
    expectGraphqlError(await t.graphql(TRAIL, { userId: a.id }, b.token), 'FORBIDDEN');
    expectGraphqlError(await t.graphql(TRAIL, { date: '2026-13-01' }, a.token), 'BAD_USER_INPUT', /^date /);

    const key = await createApiKey(t, ws, { scopes: 'read,tracking' });
    expect(expectGraphqlData(await t.graphql(LIVE, {}, { apiKey: key.key })).livePositions.pageInfo.total).toBe(2);
    expectGraphqlError(await t.graphql(TRAIL, {}, { apiKey: key.key }), 'BAD_USER_INPUT', 'userId is required with an API key');
    // A read-only key may not post (and a key is no staff member with a duty anyway).
    expectGraphqlError(await t.graphql(TRACK, { input: { positions: [fix(1)] } }, { apiKey: key.key }), 'FORBIDDEN');
  });

  it('reads and sets the workspace’s position retention', async () => {
    const ws = await createWorkspace(t);
    expect(expectGraphqlData(await t.graphql('{ workspaceConfig { positionRetentionDays } }', {}, ws.token)).workspaceConfig).toEqual({ positionRetentionDays: 90 });
    const set = `mutation ($days: Int!) { updateWorkspaceConfig(input: { positionRetentionDays: $days }) { positionRetentionDays } }`;
    for (const days of [0, 3651]) expectGraphqlError(await t.graphql(set, { days }, ws.token), 'BAD_USER_INPUT', 'positionRetentionDays must be an integer from 1 to 3650');
    expect(expectGraphqlData(await t.graphql(set, { days: 365 }, ws.token)).updateWorkspaceConfig).toEqual({ positionRetentionDays: 365 });
    const employee = await createUser(t, ws, UserType.EMPLOYEE);
    expectGraphqlError(await t.graphql(set, { days: 5 }, employee.token), 'FORBIDDEN');
  });
});
