import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { FUTURE_TOLERANCE_MS } from '../tracking/tracking.service';
import { instant } from '../tracking/position-input';
import { VISIT_OUTCOMES, VisitOutcome } from './visit.entity';

/** Where and when the device was at a check-in or check-out (REST's snake_case fields, camelCase here). */
export interface VisitPointInput {
  /** ISO 8601 with an offset (or a Date from GraphQL): the device's time. */
  deviceTime?: string | Date | null;
  latitude?: number | null;
  longitude?: number | null;
  accuracyM?: number | null;
  isMock?: boolean | null;
}

export interface CheckInVisitInput extends VisitPointInput {
  clientRef?: string | null;
  outletId?: number | null;
}

export interface CheckOutVisitInput extends VisitPointInput {
  outcome?: number | null;
  orderId?: number | null;
  noSaleReasonId?: number | null;
  remarks?: string | null;
}

/** A device point checked field by field. */
export interface CheckedPoint {
  deviceTime: Date;
  latitude: number;
  longitude: number;
  accuracyM: number | null;
  isMock: boolean | null;
}

/** The outcome of a check-out, checked for shape (its order and reason are looked up by the service). */
export interface CheckedOutcome {
  outcome: VisitOutcome;
  orderId: number | null;
  noSaleReasonId: number | null;
  remarks: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The device's UUID of the visit, lower case. */
export function clientRefOf(value: string | null | undefined): string {
  if (typeof value !== 'string' || !UUID.test(value.trim())) throw new ValidationError('clientRef', 'is required: a UUID the device generated for the visit');
  return value.trim().toLowerCase();
}

/** A positive integer id, required. */
export function requiredId(field: string, value: number | null | undefined): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw new ValidationError(field, 'is required (a positive integer)');
  return value as number;
}

/** The device's time and place; its time may be at most 5 minutes ahead of the server's clock. */
export function checkPoint(input: VisitPointInput): CheckedPoint {
  const deviceTime = instant('deviceTime', input.deviceTime);
  if (deviceTime.getTime() > Date.now() + FUTURE_TOLERANCE_MS) throw new ValidationError('deviceTime', 'is more than 5 minutes ahead of the server’s clock');
  return {
    deviceTime,
    latitude: rules.coordinate('latitude', required('latitude', input.latitude), 90),
    longitude: rules.coordinate('longitude', required('longitude', input.longitude), 180),
    accuracyM: optionalRange('accuracyM', input.accuracyM, 0, 100_000),
    isMock: optionalBoolean('isMock', input.isMock),
  };
}

/** The outcome and what it needs: an order for 1 (order), a reason for 2 (no sale), neither for 3 and 4. */
export function checkOutcome(input: CheckOutVisitInput): CheckedOutcome {
  if (input.outcome == null) throw new ValidationError('outcome', 'is required: 1 order, 2 no sale, 3 collection only, 4 phone call');
  const outcome = rules.oneOf('outcome', input.outcome, VISIT_OUTCOMES as readonly number[]) as VisitOutcome;
  let orderId: number | null = null;
  let noSaleReasonId: number | null = null;
  if (outcome === VisitOutcome.ORDER) orderId = requiredId('orderId', input.orderId);
  else if (input.orderId != null) throw new ValidationError('orderId', 'is only for outcome 1 (order)');
  if (outcome === VisitOutcome.NO_SALE) noSaleReasonId = requiredId('noSaleReasonId', input.noSaleReasonId);
  else if (input.noSaleReasonId != null) throw new ValidationError('noSaleReasonId', 'is only for outcome 2 (no sale)');
  const remarks = input.remarks == null ? null : rules.optionalText('remarks', input.remarks, 500) || null;
  return { outcome, orderId, noSaleReasonId, remarks };
}

function required(field: string, value: number | null | undefined): number {
  if (typeof value !== 'number') throw new ValidationError(field, 'is required (a number)');
  return value;
}

function optionalRange(field: string, value: number | null | undefined, min: number, max: number): number | null {
  if (value == null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw new ValidationError(field, `must be a number from ${min} to ${max}`);
  return value;
}

function optionalBoolean(field: string, value: boolean | null | undefined): boolean | null {
  if (value == null) return null;
  if (typeof value !== 'boolean') throw new ValidationError(field, 'must be true or false');
  return value;
}
