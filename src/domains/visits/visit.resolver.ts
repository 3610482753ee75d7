import { Arg, Args, ArgsType, Authorized, Ctx, Field, FieldResolver, Float, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
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

@InputType({ description: 'Where and when the device was.' })
class VisitPointInput {
  @Field(() => Date, { description: 'The device’s time (ISO 8601); at most 5 minutes ahead of the server.' })
  deviceTime!: Date;

  @Field(() => Float, { description: '-90 to 90' })
  latitude!: number;

  @Field(() => Float, { description: '-180 to 180' })
  longitude!: number;

  @Field(() => Float, { nullable: true, description: 'Metres, 0 to 100000' })
  accuracyM?: number | null;

  @Field(() => Boolean, { nullable: true })
  isMock?: boolean | null;
}

@InputType({ description: 'A check-in on an outlet; the same clientRef again answers the first visit.' })
class CheckInVisitInput extends VisitPointInput {
  @Field({ description: 'A UUID the device generated for the visit.' })
  clientRef!: string;

  @Field(() => Int, { description: 'An active outlet of the workspace.' })
  outletId!: number;
}

@InputType({ description: 'A check-out with its outcome: orderId for ORDER, noSaleReasonId for NO_SALE.' })
class CheckOutVisitInput extends VisitPointInput {
  @Field(() => VisitOutcome)
  outcome!: VisitOutcome;

  @Field(() => Int, { nullable: true, description: 'Outcome ORDER: a non-cancelled order you created.' })
  orderId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Outcome NO_SALE: an active no-sale reason.' })
  noSaleReasonId?: number | null;

  @Field(() => String, { nullable: true, description: 'At most 500 characters.' })
  remarks?: string | null;
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
