import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { CRATE_MOVEMENT_KINDS, CrateMovementKind } from './crate-movement.entity';

/** Most crates one movement may move (a guard against typos such as 10000 for 100). */
export const MAX_CRATE_QUANTITY = 100_000;
/** Longest note of a movement. */
export const MAX_CRATE_NOTE = 500;

/** The kinds POST /crates/movements records; a reversal has its own operation. */
export const RECORDABLE_KINDS = CRATE_MOVEMENT_KINDS.filter((k) => k !== CrateMovementKind.REVERSAL);

/** Kinds that take crates from the customer (−), checked against what they hold. */
const OUTGOING = new Set([CrateMovementKind.RETURN, CrateMovementKind.DAMAGE, CrateMovementKind.LOSS]);

/** A movement to record, as a caller sends it. */
export interface CrateMovementRequest {
  customerId: number;
  crateTypeId: number;
  kind: number;
  /** Crates, > 0; for a count correction the signed difference (≠ 0). */
  quantity: number;
  /** An issue only: the delivered order it went with. */
  orderId?: number | null;
  /** ISO 8601; default now; never in the future. */
  occurredAt?: string | Date | null;
  note?: string | null;
  /** A damage or loss only: charge the customer the crate type's deposit value per crate, on their ledger. */
  charge?: boolean | null;
}

/** A request's fields checked (everything that needs no database), the quantity signed by its kind. */
export interface CheckedCrateMovement {
  kind: CrateMovementKind;
  quantity: number;
  orderId: number | null;
  occurredAt: Date;
  note: string | null;
  charge: boolean;
}

/** 400 naming the first bad field; nothing is read or written. */
export function checkCrateMovement(input: CrateMovementRequest, now = new Date()): CheckedCrateMovement {
  if (input.kind === CrateMovementKind.REVERSAL) throw new ValidationError('kind', 'a reversal is recorded with POST /crates/movements/{id}/reverse (GraphQL reverseCrateMovement)');
  const kind = rules.oneOf('kind', input.kind, RECORDABLE_KINDS) as CrateMovementKind;
  const quantity = signedQuantity(kind, input.quantity);
  if (input.orderId != null && kind !== CrateMovementKind.ISSUE) throw new ValidationError('orderId', 'only an issue goes with a delivered order');
  const charge = input.charge === true;
  if (charge && kind !== CrateMovementKind.DAMAGE && kind !== CrateMovementKind.LOSS) throw new ValidationError('charge', 'only a damage or a loss is charged to the customer');
  return {
    kind,
    quantity,
    orderId: input.orderId ?? null,
    occurredAt: input.occurredAt == null ? now : occurredMoment(input.occurredAt, now),
    note: noteOf(input.note),
    charge,
  };
}

/** A note trimmed, at most MAX_CRATE_NOTE characters; blank is none. */
export function noteOf(note: string | null | undefined): string | null {
  return note == null ? null : rules.optionalText('note', note, MAX_CRATE_NOTE) || null;
}

function signedQuantity(kind: CrateMovementKind, value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ValidationError('quantity', 'must be a whole number of crates');
  if (Math.abs(value) > MAX_CRATE_QUANTITY) throw new ValidationError('quantity', `must be at most ${MAX_CRATE_QUANTITY} crates`);
  if (kind === CrateMovementKind.COUNT_CORRECTION) {
    if (value === 0) throw new ValidationError('quantity', 'a count correction is the difference from the balance: not 0');
    return value;
  }
  if (value <= 0) throw new ValidationError('quantity', 'must be > 0 (the kind gives the sign)');
  return OUTGOING.has(kind) ? -value : value;
}

function occurredMoment(value: string | Date, now: Date): Date {
  const at = value instanceof Date ? value : new Date(value);
  if (typeof value === 'string' && !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw new ValidationError('occurredAt', 'must be an ISO 8601 timestamp');
  if (Number.isNaN(at.getTime())) throw new ValidationError('occurredAt', 'must be an ISO 8601 timestamp');
  if (at.getTime() > now.getTime() + 5 * 60_000) throw new ValidationError('occurredAt', 'must not be in the future');
  if (at.getUTCFullYear() < 2000) throw new ValidationError('occurredAt', 'must be in the year 2000 or later');
  return at;
}
