import { Type } from '@sinclair/typebox';
import type { CrateBalanceRead, CrateMovementRead } from '../../src/domains/crates/crate-read';
import { outstandingValueOf } from '../../src/domains/crates/crate-read';
import { CRATE_MOVEMENT_KIND_LABELS, CRATE_MOVEMENT_KINDS } from '../../src/domains/crates/crate-movement.entity';
import { Nullable, Timestamp } from '../schemas';

/** `kind` codes of a crate movement with their labels, as descriptions list them. */
export const CRATE_KIND_TEXT = CRATE_MOVEMENT_KINDS.map((k) => `${k} ${CRATE_MOVEMENT_KIND_LABELS[k]}`).join(', ');

const customerFields = { customer_id: Type.Integer(), customer_name: Type.String(), store_name: Nullable(Type.String()) };

/** A crate movement with its customer's and type's names. */
export const CrateMovementBody = Type.Object({
  id: Type.Integer(),
  ...customerFields,
  crate_type_id: Type.Integer(),
  crate_type_name: Type.String(),
  kind: Type.Integer({ description: CRATE_KIND_TEXT }),
  quantity: Type.Integer({ description: 'Signed: + crates to the customer, − from them; a reversal negates the movement it undoes' }),
  order_id: Nullable(Type.Integer({ description: 'The delivered order an issue went with' })),
  reverses_id: Nullable(Type.Integer({ description: 'A reversal: the movement it undoes' })),
  reversed_by_id: Nullable(Type.Integer({ description: 'The reversal that undid this movement; null while it stands' })),
  occurred_at: Timestamp,
  note: Nullable(Type.String()),
  recorded_by_user_id: Nullable(Type.Integer()),
  recorded_by_api_key_id: Nullable(Type.Integer()),
  ledger_entry_id: Nullable(Type.Integer({ description: 'The ledger entry charging a damage or loss, when one was posted' })),
  created_at: Timestamp,
});

/** One customer's crates of one type. */
export const CrateBalanceBody = Type.Object({
  ...customerFields,
  crate_type_id: Type.Integer(),
  crate_type_name: Type.String(),
  deposit_value: Type.Number(),
  balance: Type.Integer({ description: 'Crates the customer holds: the sum of their movements of the type' }),
  outstanding_value: Type.Number({ description: 'balance × deposit_value' }),
  oldest_outstanding_at: Nullable({ ...Timestamp, description: 'When the oldest crates still held reached the customer (FIFO); null at 0' }),
  age_days: Nullable(Type.Integer({ description: 'Days from that day to today, the workspace’s local days; null at 0' })),
  last_movement_at: Timestamp,
});

const customerOf = (customer: CrateMovementRead['customer']) => ({
  customer_id: customer.id,
  customer_name: `${customer.firstName} ${customer.lastName}`,
  store_name: customer.storeName,
});

/** A crate movement as REST shows it. */
export function presentCrateMovement({ movement: m, customer, crateType, reversedById }: CrateMovementRead) {
  return {
    id: m.id,
    ...customerOf(customer),
    crate_type_id: crateType.id,
    crate_type_name: crateType.name,
    kind: m.kind,
    quantity: m.quantity,
    order_id: m.order,
    reverses_id: m.reverses,
    reversed_by_id: reversedById,
    occurred_at: m.occurredAt,
    note: m.note,
    recorded_by_user_id: m.recordedBy,
    recorded_by_api_key_id: m.recordedByApiKeyId,
    ledger_entry_id: m.ledgerEntryId,
    created_at: m.createdAt,
  };
}

/** A crate balance as REST shows it. */
export function presentCrateBalance(read: CrateBalanceRead) {
  const { balance: b, customer, crateType } = read;
  return {
    ...customerOf(customer),
    crate_type_id: crateType.id,
    crate_type_name: crateType.name,
    deposit_value: crateType.depositValue,
    balance: b.balance,
    outstanding_value: outstandingValueOf(read),
    oldest_outstanding_at: b.oldestOutstandingAt,
    age_days: b.oldestOutstandingAgeDays,
    last_movement_at: b.lastMovementAt,
  };
}
