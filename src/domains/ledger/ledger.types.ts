import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { LedgerEntryKind } from './ledger-entry.entity';
import { LEDGER_ENTRY_SORT } from './ledger.service';

@ArgsType()
export class LedgerEntryListArgs extends SortedPageArgs(LEDGER_ENTRY_SORT) {
  @Field(() => Int, { nullable: true, description: 'One customer’s rows (customers: only their own anyway)' })
  customerId?: number | null;

  @Field(() => LedgerEntryKind, { nullable: true })
  kind?: LedgerEntryKind | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: rows on or after it' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: rows on or before it' })
  dateTo?: string | null;

  @Field(() => Int, { nullable: true, description: 'The rows of one order' })
  orderId?: number | null;

  @Field(() => Int, { nullable: true, description: 'The rows of one payment' })
  paymentId?: number | null;
}

@InputType({ description: 'A credit note (lowers what the customer owes) or a debit note (raises it).' })
export class LedgerNoteInput {
  @Field(() => Int, { description: 'A customer (distributor or retailer) of the workspace' })
  customerId!: number;

  @Field({ description: 'credit or debit' })
  noteType!: string;

  @Field(() => Float, { description: 'Greater than 0, at most two decimals' })
  amount!: number;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD, not after today (default: today, the workspace’s local day)' })
  entryDate?: string | null;

  @Field(() => String, { nullable: true, description: 'The note’s number, at most 100 characters' })
  reference?: string | null;

  @Field({ description: 'Why: required, at most 500 characters' })
  narration!: string;
}

@InputType({ description: 'The balance a customer brought from before this ledger: once per customer.' })
export class OpeningBalanceInput {
  @Field(() => Int)
  customerId!: number;

  @Field(() => Float, { description: 'Positive: the customer owes; negative: the customer is in credit. Not 0.' })
  amount!: number;

  @Field({ description: 'YYYY-MM-DD, not after today: the day it counts on' })
  asOf!: string;

  @Field(() => String, { nullable: true, description: 'At most 500 characters (default "Opening balance")' })
  narration?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A row of a statement and the balance after it.' })
export class LedgerStatementRow {
  @Field(() => Int) id!: number;
  @Field() entryDate!: string;
  @Field(() => LedgerEntryKind) kind!: LedgerEntryKind;
  @Field(() => Float) debit!: number;
  @Field(() => Float) credit!: number;
  @Field(() => Float, { description: 'The balance after this row (positive: the customer owes).' }) balance!: number;
  @Field(() => Int, { nullable: true }) orderId!: number | null;
  @Field(() => Int, { nullable: true }) paymentId!: number | null;
  @Field(() => Int, { nullable: true }) reversesId!: number | null;
  @Field(() => String, { nullable: true }) narration!: string | null;
  @Field(() => String, { nullable: true }) reference!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'What stays owed at the statement’s end by the age of each open debit (credits applied oldest debit first).' })
export class LedgerAgeing {
  @Field(() => Float) days0To7!: number;
  @Field(() => Float) days8To15!: number;
  @Field(() => Float) days16To30!: number;
  @Field(() => Float) over30Days!: number;
  @Field(() => Float, { description: 'Credits beyond every debit: paid ahead.' }) advance!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A customer’s statement of account over [from, to].' })
export class LedgerStatement {
  @Field(() => Int) customerId!: number;
  @Field() from!: string;
  @Field() to!: string;
  @Field(() => Float, { description: 'Every row before from.' }) openingBalance!: number;
  @Field(() => [LedgerStatementRow], { description: 'The page asked for of the rows in [from, to], by day, then id.' }) rows!: LedgerStatementRow[];
  @Field(() => Int, { description: 'How many rows [from, to] holds; the balances, totals and ageing count them all.' }) rowCount!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Float) totalDebit!: number;
  @Field(() => Float) totalCredit!: number;
  @Field(() => Float, { description: 'openingBalance + totalDebit − totalCredit.' }) closingBalance!: number;
  @Field(() => LedgerAgeing) ageing!: LedgerAgeing;
}
