import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../../errors/app-error';
import { User } from '../users/user.entity';
import { LedgerEntry, type LedgerEntryKind } from './ledger-entry.entity';

/** A row to append: one side only (debit or credit > 0). */
export interface LedgerPosting {
  customer: number;
  kind: LedgerEntryKind;
  entryDate: string;
  debit?: number;
  credit?: number;
  reverses?: number;
  narration: string;
  reference?: string | null;
}

/** Who posts: the workspace, and the user or API key (audit columns). */
export interface Poster {
  organizationId: number;
  userId: number | null;
  apiKeyId: number | null;
}

/**
 * Appends one ledger row in `em`'s transaction (its own, if none): the one way rows other than
 * the triggers' order and payment postings are written (notes, opening balances, reversals, and
 * other domains' charges such as crates'). A race on a unique rule (a second reversal of a row) is a 409.
 */
export async function postLedgerEntry(em: EntityManager, by: Poster, entry: LedgerPosting): Promise<LedgerEntry> {
  try {
    return await em.transactional(async (tx) => {
      const row = tx.create(LedgerEntry, {
        organizationId: by.organizationId,
        customer: tx.getReference(User, entry.customer),
        entryDate: entry.entryDate,
        kind: entry.kind,
        debit: entry.debit ?? 0,
        credit: entry.credit ?? 0,
        reverses: entry.reverses ?? null,
        narration: entry.narration,
        reference: entry.reference ?? null,
        createdBy: by.userId,
        createdByApiKeyId: by.apiKeyId,
      });
      await tx.flush();
      return row;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && entry.reverses) throw new ConflictError(`Ledger entry ${entry.reverses} is already reversed`);
    throw err;
  }
}
