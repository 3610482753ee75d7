import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Nonces of signed, stateless challenges that have been redeemed (bot-check payloads, WebAuthn
 * challenges): a challenge verifies only once, on any instance. Rows outlive their challenge
 * by nothing: the clean-up task deletes them once `expires_at` has passed.
 */
@Entity({ tableName: 'spent_nonce' })
@Index({ properties: ['expiresAt'] })
export class SpentNonce {
  @PrimaryKey({ length: 200 })
  nonce!: string;

  @Property({ type: 'datetime' })
  expiresAt!: Date;
}

/** Marks a nonce as used; false when it already was (atomic, so two racing requests cannot both win). */
export async function spendNonce(em: EntityManager, nonce: string, expiresAt: Date): Promise<boolean> {
  const rows = await em
    .createQueryBuilder(SpentNonce)
    .insert({ nonce, expiresAt })
    .onConflict('nonce')
    .ignore()
    .returning('nonce')
    .execute('all');
  return rows.length === 1;
}
