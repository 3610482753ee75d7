import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ValidationError } from '../../errors/app-error';
import { LedgerEntry, LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { postLedgerEntry } from '../ledger/ledger-post';
import type { CrateType } from '../masters/crate-type.entity';
import { localDayOf, workspaceToday } from '../workspace/local-day';
import type { CheckedCrateMovement } from './crate-rules';
import { CRATE_MOVEMENT_KIND_LABELS } from './crate-movement.entity';

/**
 * A damage or loss charged to the customer: a ledger debit (kind crate charge) of the crates at
 * the type's deposit value, on the local day the crates were lost. 400 naming `charge` for a type
 * without a deposit value (nothing to charge).
 */
export async function postCrateCharge(tx: EntityManager, ctx: RequestContext, customerId: number, crateType: CrateType, movement: CheckedCrateMovement): Promise<LedgerEntry> {
  const crates = -movement.quantity;
  const amount = Math.round(crates * crateType.depositValue * 100) / 100;
  if (amount <= 0) throw new ValidationError('charge', `the crate type ${crateType.name} has no deposit value to charge`);
  return postLedgerEntry(tx, ctx, {
    customer: customerId,
    kind: LedgerEntryKind.CRATE_CHARGE,
    entryDate: await localDayOf(tx, ctx.organizationId, movement.occurredAt),
    debit: amount,
    narration: `${crates} × ${crateType.name} crate ${CRATE_MOVEMENT_KIND_LABELS[movement.kind]} at ${crateType.depositValue.toFixed(2)}`,
  });
}

/** The ledger's reversal of a charge, dated today, when its movement is reversed. */
export async function reverseCrateCharge(tx: EntityManager, ctx: RequestContext, chargeId: number, movementId: number): Promise<LedgerEntry> {
  const charge = await tx.findOneOrFail(LedgerEntry, { id: chargeId });
  return postLedgerEntry(tx, ctx, {
    customer: charge.customer.id,
    kind: LedgerEntryKind.REVERSAL,
    entryDate: await workspaceToday(tx, ctx.organizationId),
    debit: charge.credit,
    credit: charge.debit,
    reverses: chargeId,
    narration: `Crate movement ${movementId} reversed`,
  });
}
