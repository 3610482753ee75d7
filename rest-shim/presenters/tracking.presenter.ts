import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { Position } from '../../src/domains/tracking/position.entity';
import type { LivePosition } from '../../src/domains/tracking/tracking-statements';
import type { TrackResult, TrailRead } from '../../src/domains/tracking/tracking.service';
import { DateString, Nullable, Timestamp } from '../schemas';

/** What a position says, in the live map and in a trail alike. */
const POSITION_FIELDS = {
  latitude: Type.Number(),
  longitude: Type.Number(),
  accuracy_m: Nullable(Type.Number()),
  speed_mps: Nullable(Type.Number()),
  heading: Nullable(Type.Number()),
  battery_pct: Nullable(Type.Integer()),
  is_charging: Nullable(Type.Boolean()),
  is_mock: Nullable(Type.Boolean()),
  recorded_at: Timestamp,
  received_at: Timestamp,
};

/** The position fields of a live row or a trail point. */
function positionFields(p: Pick<LivePosition, 'latitude' | 'longitude' | 'accuracyM' | 'speedMps' | 'heading' | 'batteryPct' | 'isCharging' | 'isMock' | 'recordedAt' | 'receivedAt'>) {
  return {
    latitude: p.latitude,
    longitude: p.longitude,
    accuracy_m: p.accuracyM,
    speed_mps: p.speedMps,
    heading: p.heading,
    battery_pct: p.batteryPct,
    is_charging: p.isCharging,
    is_mock: p.isMock,
    recorded_at: p.recordedAt,
    received_at: p.receivedAt,
  };
}

/** What a batch of positions did. */
export const TrackResultBody = Type.Object({
  accepted: Type.Integer({ description: 'Positions stored' }),
  rejected: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'Index in the batch, from 0' }),
      reason: Type.String({ description: 'before_check_in, in_future (more than 5 minutes ahead of the server) or duplicate (already stored for that device time)' }),
    }),
  ),
  checked_in_at: Timestamp,
});

/** A staff member's latest position. */
export const LivePositionBody = Type.Object({
  id: Type.Integer({ description: 'The position’s id' }),
  user_id: Type.Integer(),
  user_name: Type.String(),
  user_type: Type.Integer({ description: '0 admin, 1 employee' }),
  ...POSITION_FIELDS,
  staleness_seconds: Type.Integer({ description: 'now − recorded_at' }),
  on_duty: Type.Boolean({ description: 'Checked in today and not yet out' }),
  current_visit_id: Nullable(Type.Integer({ description: 'The user’s visit in progress, if any' })),
});

/** One point of a trail. */
const TrailPointBody = Type.Object({ id: Type.Integer(), ...POSITION_FIELDS });

/** One user's breadcrumb of one local day. */
export const TrailBody = Type.Object({
  user_id: Type.Integer(),
  user_name: Type.String(),
  date: DateString,
  distance_m: Type.Integer({ description: 'Haversine length of the path through the points, metres' }),
  truncated: Type.Boolean({ description: 'The day holds more than 20,000 points: the first 20,000 are answered' }),
  points: Type.Array(TrailPointBody),
});

export function presentTrackResult(r: TrackResult) {
  return { accepted: r.accepted, rejected: r.rejected, checked_in_at: r.checkedInAt };
}

export function presentLivePosition(p: LivePosition) {
  return {
    id: p.positionId,
    user_id: p.userId,
    user_name: p.userName,
    user_type: p.userType,
    ...positionFields(p),
    staleness_seconds: p.stalenessSeconds,
    on_duty: p.onDuty,
    current_visit_id: p.currentVisitId,
  };
}

function presentPoint(p: Row<Position>) {
  return { id: p.id, ...positionFields(p) };
}

export function presentTrail(t: TrailRead) {
  return {
    user_id: t.user.id,
    user_name: `${t.user.firstName} ${t.user.lastName}`,
    date: t.date,
    distance_m: t.distanceM,
    truncated: t.truncated,
    points: t.points.map(presentPoint),
  };
}
