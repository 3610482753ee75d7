import type { CrateMovement } from './crate-movement.entity';

/** Webhook events of crates: emitted in the transaction of the movement. */
export const CRATE_EVENTS = ['crate_movement.recorded'] as const;

/** `data` of crate_movement.recorded (every kind, reversals included): the movement as REST shows it, by ids. */
export function crateMovementData(m: CrateMovement) {
  return {
    id: m.id,
    customer_id: m.customer.id,
    crate_type_id: m.crateType.id,
    kind: m.kind,
    quantity: m.quantity,
    order_id: m.order?.id ?? null,
    reverses_id: m.reverses?.id ?? null,
    occurred_at: m.occurredAt.toISOString(),
    note: m.note,
    recorded_by_user_id: m.recordedBy?.id ?? null,
    recorded_by_api_key_id: m.recordedByApiKeyId,
    ledger_entry_id: m.ledgerEntryId,
    created_at: m.createdAt.toISOString(),
  };
}
