import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';

/** One position as a device sends it (REST's snake_case fields, camelCase here). */
export interface PositionInput {
  /** ISO 8601 with an offset (or a Date from GraphQL): the device's time of the fix. */
  deviceTime: string | Date;
  latitude: number;
  longitude: number;
  accuracyM?: number | null;
  speedMps?: number | null;
  heading?: number | null;
  batteryPct?: number | null;
  isCharging?: boolean | null;
  isMock?: boolean | null;
}

/** A position checked field by field, ready to store. */
export interface CheckedPosition {
  recordedAt: Date;
  latitude: number;
  longitude: number;
  accuracyM: number | null;
  speedMps: number | null;
  heading: number | null;
  batteryPct: number | null;
  isCharging: boolean | null;
  isMock: boolean | null;
}

/** Most positions one request may carry. */
export const MAX_POSITIONS_PER_BATCH = 500;

/** An instant with its offset: 2026-11-27T09:15:00Z, 2026-11-27T14:45:00.250+05:30. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Checks a batch's shape and every field of every position: a malformed field is a client bug,
 * so it refuses the whole batch (400 naming `positions[i].<field>`) and nothing is stored. Whether
 * each position falls within the poster's duty is decided later, per position (tracking.service).
 */
export function checkPositions(positions: readonly PositionInput[] | null | undefined): CheckedPosition[] {
  if (!Array.isArray(positions) || positions.length === 0 || positions.length > MAX_POSITIONS_PER_BATCH) {
    throw new ValidationError('positions', `must hold 1 to ${MAX_POSITIONS_PER_BATCH} positions`);
  }
  return positions.map((p, i) => {
    const field = (name: string) => `positions[${i}].${name}`;
    if (p === null || typeof p !== 'object') throw new ValidationError(`positions[${i}]`, 'must be an object');
    return {
      recordedAt: instant(field('deviceTime'), p.deviceTime),
      latitude: rules.coordinate(field('latitude'), required(field('latitude'), p.latitude), 90),
      longitude: rules.coordinate(field('longitude'), required(field('longitude'), p.longitude), 180),
      accuracyM: optionalRange(field('accuracyM'), p.accuracyM, 0, 100_000),
      speedMps: optionalRange(field('speedMps'), p.speedMps, 0, 1_000),
      heading: optionalRange(field('heading'), p.heading, 0, 360),
      batteryPct: optionalInteger(field('batteryPct'), p.batteryPct, 0, 100),
      isCharging: optionalBoolean(field('isCharging'), p.isCharging),
      isMock: optionalBoolean(field('isMock'), p.isMock),
    };
  });
}

function required(field: string, value: number | null | undefined): number {
  if (typeof value !== 'number') throw new ValidationError(field, 'is required (a number)');
  return value;
}

/** An ISO 8601 instant with its offset (or a Date from GraphQL), else a 400 naming `field`. */
export function instant(field: string, value: string | Date | null | undefined): Date {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ValidationError(field, 'must be an ISO 8601 timestamp');
    return value;
  }
  if (typeof value !== 'string' || !ISO_INSTANT.test(value.trim())) {
    throw new ValidationError(field, 'must be an ISO 8601 timestamp with a time zone offset, e.g. 2026-11-27T09:15:00Z');
  }
  const at = new Date(value.trim());
  if (Number.isNaN(at.getTime())) throw new ValidationError(field, 'must be an ISO 8601 timestamp');
  return at;
}

function optionalRange(field: string, value: number | null | undefined, min: number, max: number): number | null {
  if (value == null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ValidationError(field, `must be a number from ${min} to ${max}`);
  }
  return value;
}

function optionalInteger(field: string, value: number | null | undefined, min: number, max: number): number | null {
  if (value == null) return null;
  if (!Number.isInteger(value) || value < min || value > max) throw new ValidationError(field, `must be an integer from ${min} to ${max}`);
  return value;
}

function optionalBoolean(field: string, value: boolean | null | undefined): boolean | null {
  if (value == null) return null;
  if (typeof value !== 'boolean') throw new ValidationError(field, 'must be true or false');
  return value;
}
