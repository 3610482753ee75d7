import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { CRATE_BALANCE_SORT } from './crate-balances';
import { CrateMovementKind } from './crate-movement.entity';
import { CRATE_MOVEMENT_SORT } from './crate.service';

@ArgsType()
export class CrateMovementListArgs extends SortedPageArgs(CRATE_MOVEMENT_SORT) {
  @Field(() => Int, { nullable: true, description: "Only this customer's movements (customers see only their own anyway)" })
  customerId?: number | null;

  @Field(() => Int, { nullable: true })
  crateTypeId?: number | null;

  @Field(() => CrateMovementKind, { nullable: true })
  kind?: CrateMovementKind | null;

  @Field(() => Int, { nullable: true, description: 'Movements that went with this order (its issues and their reversals)' })
  orderId?: number | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD, the workspace’s local day: movements that occurred on or after it' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: movements that occurred on or before it' })
  dateTo?: string | null;
}

@ArgsType()
export class CrateBalanceListArgs extends SortedPageArgs(CRATE_BALANCE_SORT) {
  @Field(() => Int, { nullable: true, description: "Only this customer's balances (customers see only their own anyway)" })
  customerId?: number | null;

  @Field(() => Int, { nullable: true })
  crateTypeId?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Only balances above 0 (default false: every customer and type with a movement)' })
  held?: boolean | null;
}

@InputType({ description: 'A crate movement. The kind gives the sign: quantity is > 0, except for a count correction (the signed difference).' })
export class RecordCrateMovementInput {
  @Field(() => Int, { description: 'A distributor or retailer of the workspace' })
  customerId!: number;

  @Field(() => Int)
  crateTypeId!: number;

  @Field(() => CrateMovementKind, { description: 'Any kind but REVERSAL (reverseCrateMovement)' })
  kind!: CrateMovementKind;

  @Field(() => Int, { description: 'Crates (1 … 100000); a count correction: the signed difference from the balance, not 0' })
  quantity!: number;

  @Field(() => Int, { nullable: true, description: 'An issue only: the delivered order of this customer the crates went with' })
  orderId?: number | null;

  @Field(() => Date, { nullable: true, description: 'When the crates moved; default now, never in the future' })
  occurredAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'At most 500 characters' })
  note?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'DAMAGE or LOSS only: charge the customer the crate type’s deposit value per crate (a ledger debit)' })
  charge?: boolean | null;
}

/** One customer's crates of one type. */
@ObjectType({ simpleResolvers: true, description: "One customer's crates of one type: the sum of their movements, with its ageing." })
export class CrateBalance {
  @Field(() => Int)
  customerId!: number;

  @Field(() => Int)
  crateTypeId!: number;

  @Field(() => Int, { description: 'Crates the customer holds: the sum of their movements of the type.' })
  balance!: number;

  @Field(() => Float, { description: "balance × the crate type's deposit value." })
  outstandingValue!: number;

  @Field(() => Date, { nullable: true, description: 'When the oldest crates still held reached the customer (FIFO: returns, damage and loss consume the oldest first); null at 0.' })
  oldestOutstandingAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'Days from that day to today (workspace local days); null at 0.' })
  oldestOutstandingAgeDays!: number | null;

  @Field()
  lastMovementAt!: Date;
}
