import { Arg, Args, ArgsType, Authorized, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { SortedPageArgs } from '../../graphql/sort.types';
import { NoSaleReason } from '../masters/no-sale-reason.entity';
import { Outlet } from '../masters/outlet.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';
import { visitRowOf } from './visit-read';
import { Visit, VisitOutcome, VisitStatus } from './visit.entity';
import { VISIT_SORT } from './visit.service';
import { CheckInVisitInput, CheckOutVisitInput } from './visit.types';

const VisitPage = PageOf(Visit, 'Visit');

@ArgsType()
class VisitListArgs extends SortedPageArgs(VISIT_SORT) {
  @Field(() => Int, { nullable: true, description: 'Only this user’s visits (employees: only their own).' })
  userId?: number | null;

  @Field(() => Int, { nullable: true })
  outletId?: number | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD, the visit’s local day.' })
  date?: string | null;

  @Field(() => VisitStatus, { nullable: true })
  status?: VisitStatus | null;

  @Field(() => VisitOutcome, { nullable: true })
  outcome?: VisitOutcome | null;
}

@Authorized()
@Resolver()
export class VisitResolver {
  @InGroup('visits')
  @Query(() => VisitPage, { complexity: pageCost(), description: 'Visits, newest check-in first (staff; employees see their own).' })
  async visits(@Args(() => VisitListArgs) args: VisitListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<Visit>>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.visits.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => visitRowOf(read, loaders)) });
  }

  @InGroup('visits')
  @Query(() => Visit, { complexity: COST.record, description: 'One visit (employees: their own).' })
  async visit(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Visit>> {
    return visitRowOf(await services.visits.get(ctx, id), loaders);
  }

  @InGroup('visits')
  @Mutation(() => Visit, { complexity: COST.write, description: 'Checks the signed-in employee or admin in on an outlet; CONFLICT while another visit is in progress.' })
  async checkInVisit(@Arg('input', () => CheckInVisitInput) input: CheckInVisitInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Visit>> {
    return visitRowOf((await services.visits.checkIn(ctx, input)).read, loaders);
  }

  @InGroup('visits')
  @Mutation(() => Visit, { complexity: COST.write, description: 'Checks the signed-in user’s visit out with its outcome; CONFLICT when not in progress.' })
  async checkOutVisit(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => CheckOutVisitInput) input: CheckOutVisitInput,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Visit>> {
    return visitRowOf(await services.visits.checkOut(ctx, id, input), loaders);
  }

  @InGroup('visits')
  @Mutation(() => Visit, { complexity: COST.write, description: 'In progress → abandoned (its visitor or an admin); CONFLICT otherwise.' })
  async abandonVisit(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Visit>> {
    return visitRowOf(await services.visits.abandon(ctx, id), loaders);
  }
}

@Resolver(() => Visit)
export class VisitFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation })
  user(@Root() visit: Pick<Row<Visit>, 'user'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(visit.user);
  }

  @FieldResolver(() => Outlet, { complexity: COST.relation })
  outlet(@Root() visit: Pick<Row<Visit>, 'outlet'>, @Ctx() { loaders }: GraphqlContext): Related<Row<Outlet>> {
    return loaders.outlet.load(visit.outlet);
  }

  @FieldResolver(() => Order, { nullable: true, complexity: COST.relation })
  order(@Root() visit: Pick<Row<Visit>, 'order'>, @Ctx() { loaders }: GraphqlContext): Related<Row<Order>> | null {
    return visit.order == null ? null : loaders.order.load(visit.order);
  }

  @FieldResolver(() => NoSaleReason, { nullable: true, complexity: COST.relation })
  noSaleReason(@Root() visit: Pick<Row<Visit>, 'noSaleReason'>, @Ctx() { loaders }: GraphqlContext): Related<Row<NoSaleReason>> | null {
    return visit.noSaleReason == null ? null : loaders.noSaleReason.load(visit.noSaleReason);
  }
}
