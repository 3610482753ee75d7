import { Check, DecimalType, Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { Order } from '../orders/order.entity';
import { Payment } from '../payments/payment.entity';
import { User } from '../users/user.entity';

/** kind codes of a ledger entry. */
export enum LedgerEntryKind {
  ORDER = 1,
  PAYMENT = 2,
  CREDIT_NOTE = 3,
  DEBIT_NOTE = 4,
  OPENING_BALANCE = 5,
  REVERSAL = 6,
  CRATE_CHARGE = 7,
}
registerEnumType(LedgerEntryKind, {
  name: 'LedgerEntryKind',
  description: '1 order delivered (debit), 2 payment (credit), 3 credit note, 4 debit note, 5 opening balance, 6 reversal, 7 crate charge',
});

/** Every kind code. */
export const LEDGER_ENTRY_KINDS = Object.values(LedgerEntryKind).filter((v): v is LedgerEntryKind => typeof v === 'number');

/** Names of the kinds, as REST shows them and messages name them. */
export const LEDGER_KIND_NAMES: Record<LedgerEntryKind, string> = {
  [LedgerEntryKind.ORDER]: 'order',
  [LedgerEntryKind.PAYMENT]: 'payment',
  [LedgerEntryKind.CREDIT_NOTE]: 'credit_note',
  [LedgerEntryKind.DEBIT_NOTE]: 'debit_note',
  [LedgerEntryKind.OPENING_BALANCE]: 'opening_balance',
  [LedgerEntryKind.REVERSAL]: 'reversal',
  [LedgerEntryKind.CRATE_CHARGE]: 'crate_charge',
};

/**
 * One row of a customer's account: a debit (what the customer owes more) or a credit (less), never
 * both. Append-only: rows are never updated or deleted (a trigger refuses it); a mistake is
 * undone by a reversal row on the other side. A balance is always a sum of rows.
 * Orders (on delivery) and payments (on recording) are posted by triggers on their tables, so no
 * writer of orders or payments (the API, the seed, SQL) can leave the ledger behind.
 */
@ObjectType({ simpleResolvers: true, description: 'A row of a customer’s account (append-only).' })
@Entity({ tableName: 'ledger_entry' })
// The statement: one customer's rows by day.
@Index({ properties: ['organizationId', 'customer', 'entryDate', 'id'] })
@Index({ properties: ['organizationId', 'entryDate'] })
// A row is a debit or a credit: never both, never neither.
@Check({ name: 'ledger_entry_one_side', expression: 'debit >= 0 and credit >= 0 and (debit = 0) <> (credit = 0)' })
// An order and a payment are posted once, and a row is reversed at most once, whatever races.
@Index({ name: 'ledger_entry_order_posted_once', expression: 'create unique index "ledger_entry_order_posted_once" on "ledger_entry" ("organization_id", "order_id") where "kind" = 1' })
@Index({ name: 'ledger_entry_payment_posted_once', expression: 'create unique index "ledger_entry_payment_posted_once" on "ledger_entry" ("organization_id", "payment_id") where "kind" = 2' })
@Index({ name: 'ledger_entry_reversed_once', expression: 'create unique index "ledger_entry_reversed_once" on "ledger_entry" ("organization_id", "reverses_id") where "reverses_id" is not null' })
export class LedgerEntry extends TenantEntity<'debit' | 'credit' | 'order' | 'payment' | 'reverses' | 'narration' | 'reference' | 'createdBy' | 'createdByApiKeyId'> {
  @ManyToOne(() => User, { fieldName: 'customer_id' })
  customer!: User;

  @Field({ description: 'The workspace’s local day it counts on.' })
  @Property({ type: 'date' })
  entryDate!: string;

  @Field(() => LedgerEntryKind)
  @Property({ type: 'smallint' })
  kind!: LedgerEntryKind;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)', default: 0 })
  debit: number = 0;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)', default: 0 })
  credit: number = 0;

  @Field(() => Int, { nullable: true, description: 'The delivered order it posts.' })
  @ManyToOne(() => Order, { mapToPk: true, nullable: true, fieldName: 'order_id' })
  order: number | null = null;

  @Field(() => Int, { nullable: true, description: 'The payment it posts.' })
  @ManyToOne(() => Payment, { mapToPk: true, nullable: true, fieldName: 'payment_id' })
  payment: number | null = null;

  @Field(() => Int, { nullable: true, description: 'The entry this one reverses.' })
  @ManyToOne(() => LedgerEntry, { mapToPk: true, nullable: true, fieldName: 'reverses_id' })
  reverses: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  narration: string | null = null;

  @Field(() => String, { nullable: true, description: 'A note’s number or the document it refers to.' })
  @Property({ type: 'string', length: 100, nullable: true })
  reference: string | null = null;

  @ManyToOne(() => User, { mapToPk: true, nullable: true, fieldName: 'created_by_user_id' })
  createdBy: number | null = null;

  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'created_by_api_key_id' })
  createdByApiKeyId: number | null = null;
}
