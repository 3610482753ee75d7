import { Check, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { CrateType } from '../masters/crate-type.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';
import { LedgerEntry } from '../ledger/ledger-entry.entity';

/** kind codes of a crate movement. */
export enum CrateMovementKind {
  /** Crates left with the customer (+), optionally with a delivered order. */
  ISSUE = 1,
  /** Empties the customer gave back (−). */
  RETURN = 2,
  /** Crates the customer broke (−): written off their balance. */
  DAMAGE = 3,
  /** Crates the customer lost (−): written off their balance. */
  LOSS = 4,
  /** A manual count's difference from the balance, as a delta (+ or −), never an absolute count. */
  COUNT_CORRECTION = 5,
  /** What the customer held when the books started (+). */
  OPENING_BALANCE = 6,
  /** Undoes one movement: its negated quantity, linked to it. */
  REVERSAL = 7,
}
registerEnumType(CrateMovementKind, {
  name: 'CrateMovementKind',
  description: '1 issue, 2 return, 3 damage, 4 loss, 5 count correction, 6 opening balance, 7 reversal',
});

/** Every movement kind code: 1 … 7. */
export const CRATE_MOVEMENT_KINDS = Object.values(CrateMovementKind).filter((v): v is CrateMovementKind => typeof v === 'number');

/** Labels of the kinds, as messages and descriptions name them. */
export const CRATE_MOVEMENT_KIND_LABELS: Record<CrateMovementKind, string> = {
  [CrateMovementKind.ISSUE]: 'issue',
  [CrateMovementKind.RETURN]: 'return',
  [CrateMovementKind.DAMAGE]: 'damage',
  [CrateMovementKind.LOSS]: 'loss',
  [CrateMovementKind.COUNT_CORRECTION]: 'count correction',
  [CrateMovementKind.OPENING_BALANCE]: 'opening balance',
  [CrateMovementKind.REVERSAL]: 'reversal',
};

/**
 * One row of the crate ledger: crates of one type moving to (+) or from (−) one customer. Rows are
 * only ever inserted (a trigger refuses UPDATE, see Migration20261127120000): a balance is the sum
 * of a customer's rows, and a mistake is undone by a reversal row, never by an edit.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'crate_movement' })
// A balance and its ageing read one customer's rows of one type; the list filters by customer.
@Index({ properties: ['organizationId', 'customer', 'crateType', 'occurredAt'] })
// The list's default order, and the balances of one type across customers.
@Index({ properties: ['organizationId', 'occurredAt'] })
@Index({ properties: ['organizationId', 'crateType'] })
@Index({ properties: ['organizationId', 'order'] })
// A movement is reversed at most once, even by two requests at the same moment.
@Unique({ properties: ['organizationId', 'reverses'] })
@Check({ name: 'crate_movement_quantity_check', expression: 'quantity <> 0' })
export class CrateMovement extends TenantEntity<'order' | 'reverses' | 'note' | 'recordedBy' | 'recordedByApiKeyId' | 'ledgerEntryId'> {
  @ManyToOne(() => CrateType, { fieldName: 'crate_type_id' })
  crateType!: CrateType;

  @ManyToOne(() => User, { fieldName: 'customer_id' })
  customer!: User;

  @Field(() => CrateMovementKind)
  @Property({ type: 'smallint' })
  kind!: CrateMovementKind;

  @Field(() => Int, { description: 'Signed: + crates to the customer (issue, opening balance, an upward count), − from them (return, damage, loss, a downward count); a reversal negates the movement it undoes.' })
  @Property({ type: 'integer' })
  quantity!: number;

  @ManyToOne(() => Order, { nullable: true, fieldName: 'order_id' })
  order: Order | null = null;

  @ManyToOne(() => CrateMovement, { nullable: true, fieldName: 'reverses_id' })
  reverses: CrateMovement | null = null;

  @Field({ description: 'When the crates moved (an opening balance: the day the books start).' })
  @Property({ type: 'datetime' })
  occurredAt!: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  note: string | null = null;

  @ManyToOne(() => User, { nullable: true, fieldName: 'recorded_by_user_id' })
  recordedBy: User | null = null;

  @Field(() => Int, { nullable: true, description: 'The API key that recorded it, when one did.' })
  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'recorded_by_api_key_id' })
  recordedByApiKeyId: number | null = null;

  /**
   * The customer ledger's entry posted with this row, in its transaction: the charge of a damage or
   * loss at the crate type's deposit value (`charge`), or, on the reversal of a charged movement,
   * the reversal of that charge.
   */
  @Field(() => Int, { nullable: true, description: 'The ledger entry charging this damage or loss to the customer (on a reversal: the charge’s reversal), when one was posted.' })
  @ManyToOne(() => LedgerEntry, { mapToPk: true, nullable: true, fieldName: 'ledger_entry_id' })
  ledgerEntryId: number | null = null;
}
