import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, listCost, pageCost } from '../../graphql/costs';
import { DEFAULT_PAGE_SIZE } from '../../lists/page-request';
import type { GraphqlContext } from '../../graphql/context';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { CrateType } from '../masters/crate-type.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';
import { crateBalanceNodeOf, crateMovementRowOf } from './crate-read';
import { CrateMovement } from './crate-movement.entity';
import { CrateBalance, CrateBalanceListArgs, CrateMovementListArgs, RecordCrateMovementInput } from './crate.types';

const CrateMovementPage = PageOf(CrateMovement, 'CrateMovement');
const CrateBalancePage = PageOf(CrateBalance, 'CrateBalance');

/**
 * `crateBalances`: one statement summing and ageing (window sums) every movement the filters keep:
 * 80 ms for a whole workspace of 18,800 movements (10,000 seeded orders), 1-4 ms for one customer.
 * Priced like the sales report.
 */
const CRATE_BALANCES_COST = listCost(COST.salesReport, DEFAULT_PAGE_SIZE);

/** A movement's row as GraphQL resolves it: the reversal that undid it rides along. */
type MovementRow = Row<CrateMovement> & { reversedById: number | null };

@Authorized()
@Resolver()
export class CrateResolver {
  @InGroup('crates')
  @Query(() => CrateMovementPage, { complexity: pageCost(), description: 'Crate movements, latest first (staff and keys: all; a customer: their own).' })
  async crateMovements(@Args(() => CrateMovementListArgs) args: CrateMovementListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<MovementRow>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.crates.listMovements(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => crateMovementRowOf(read, loaders)) });
  }

  @InGroup('crates')
  @Query(() => CrateMovement, { complexity: COST.record, description: "One crate movement (a customer: their own; another's is not found)." })
  async crateMovement(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<MovementRow> {
    return crateMovementRowOf(await services.crates.getMovement(ctx, id), loaders);
  }

  @InGroup('crates')
  @Query(() => CrateBalancePage, { complexity: CRATE_BALANCES_COST, description: 'Crate balances per customer and type with their ageing, oldest outstanding first (a customer: their own).' })
  async crateBalances(@Args(() => CrateBalanceListArgs) args: CrateBalanceListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<CrateBalance>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.crates.listBalances(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => crateBalanceNodeOf(read, loaders)) });
  }

  @InGroup('crates')
  @Mutation(() => CrateMovement, {
    complexity: COST.write,
    description: 'Records a crate movement (staff and API keys). Taking more than the customer holds, or a second opening balance, is a CONFLICT.',
  })
  async recordCrateMovement(@Arg('input', () => RecordCrateMovementInput) input: RecordCrateMovementInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<MovementRow> {
    return crateMovementRowOf(await services.crates.record(ctx, input), loaders);
  }

  @InGroup('crates')
  @Mutation(() => CrateMovement, {
    complexity: COST.write,
    description: 'Reverses a crate movement once (staff and API keys): a REVERSAL row with its negated quantity. A reversal cannot be reversed.',
  })
  async reverseCrateMovement(
    @Arg('id', () => Int) id: number,
    @Arg('note', () => String, { nullable: true, description: 'At most 500 characters' }) note: string | null,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<MovementRow> {
    return crateMovementRowOf(await services.crates.reverse(ctx, id, note), loaders);
  }
}

@Resolver(() => CrateMovement)
export class CrateMovementFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation, description: 'The customer whose crates moved.' })
  customer(@Root() m: Pick<MovementRow, 'customer'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(m.customer);
  }

  @FieldResolver(() => CrateType, { complexity: COST.relation })
  crateType(@Root() m: Pick<MovementRow, 'crateType'>, @Ctx() { loaders }: GraphqlContext): Related<Row<CrateType>> {
    return loaders.crateType.load(m.crateType);
  }

  @FieldResolver(() => Order, { nullable: true, complexity: COST.relation, description: 'The delivered order an issue went with.' })
  order(@Root() m: Pick<MovementRow, 'order'>, @Ctx() { loaders }: GraphqlContext): Related<Row<Order>> | null {
    return m.order === null ? null : loaders.order.load(m.order);
  }

  @FieldResolver(() => User, { nullable: true, complexity: COST.relation, description: 'The staff member who recorded it (null when an API key did).' })
  recordedBy(@Root() m: Pick<MovementRow, 'recordedBy'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> | null {
    return m.recordedBy === null ? null : loaders.user.load(m.recordedBy);
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'A reversal: the movement it undoes.' })
  reversesId(@Root() m: Pick<MovementRow, 'reverses'>): number | null {
    return m.reverses;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The reversal that undid this movement; null while it stands.' })
  reversedById(@Root() m: Pick<MovementRow, 'reversedById'>): number | null {
    return m.reversedById;
  }
}

@Resolver(() => CrateBalance)
export class CrateBalanceFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation })
  customer(@Root() b: CrateBalance, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(b.customerId);
  }

  @FieldResolver(() => CrateType, { complexity: COST.relation })
  crateType(@Root() b: CrateBalance, @Ctx() { loaders }: GraphqlContext): Related<Row<CrateType>> {
    return loaders.crateType.load(b.crateTypeId);
  }
}
