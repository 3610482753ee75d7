import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { ProductClass } from '../masters/product-class.entity';
import { User } from '../users/user.entity';
import type { SalesAchievementRead } from './sales-achievement';
import { CreateSalesTargetInput, SalesAchievement, SalesTargetListArgs, UpdateSalesTargetInput } from './sales-plan.types';
import { SalesTarget } from './sales-target.entity';
import { salesTargetRowOf } from './sales-target-read';
import type { Loaders } from '../domain-module';

const SalesTargetPage = PageOf(SalesTarget, 'SalesTarget');

/** Targets a period's achievement is assumed to list (one per employee and class). */
const ASSUMED_TARGETS = 50;

@Authorized()
@Resolver()
export class SalesPlanResolver {
  @InGroup('sales_plan')
  @Query(() => SalesTargetPage, { complexity: pageCost(), description: 'Sales targets, newest period first (staff; employees see their own).' })
  async salesTargets(@Args(() => SalesTargetListArgs) args: SalesTargetListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<SalesTarget>>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.salesPlan.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => salesTargetRowOf(read, loaders)) });
  }

  @InGroup('sales_plan')
  @Query(() => SalesTarget, { complexity: COST.record, description: 'One sales target (staff; employees their own).' })
  async salesTarget(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<SalesTarget>> {
    return salesTargetRowOf(await services.salesPlan.get(ctx, id), loaders);
  }

  @InGroup('sales_plan')
  @Mutation(() => SalesTarget, { complexity: COST.write, description: 'Sets an employee’s target for a month or quarter (admins); 409 when one exists for the period and class.' })
  async createSalesTarget(@Arg('input', () => CreateSalesTargetInput) input: CreateSalesTargetInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<SalesTarget>> {
    return salesTargetRowOf(await services.salesPlan.create(ctx, input), loaders);
  }

  @InGroup('sales_plan')
  @Mutation(() => SalesTarget, { complexity: COST.write, description: 'Changes a sales target (admins).' })
  async updateSalesTarget(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateSalesTargetInput) input: UpdateSalesTargetInput,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<SalesTarget>> {
    return salesTargetRowOf(await services.salesPlan.update(ctx, id, input), loaders);
  }

  @InGroup('sales_plan')
  @Mutation(() => SalesTarget, { complexity: COST.write, description: 'Deletes a sales target for good (admins); answers what was deleted.' })
  async deleteSalesTarget(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<SalesTarget>> {
    return salesTargetRowOf(await services.salesPlan.remove(ctx, id), loaders);
  }

  @InGroup('sales_plan')
  @Query(() => SalesAchievement, {
    complexity: listCost(COST.dashboardStats, ASSUMED_TARGETS),
    description: 'Targets of a month (YYYY-MM) or quarter (YYYY-Qn; default the current month) against the orders each employee booked, pro-rated over working days net of approved leave.',
  })
  async salesAchievement(
    @Arg('period', () => String, { nullable: true }) period: string | null,
    @Arg('userId', () => Int, { nullable: true }) userId: number | null,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<SalesAchievement> {
    return achievementOf(await services.salesPlan.achievement(ctx, { period, userId }), loaders);
  }
}

function achievementOf(read: SalesAchievementRead, loaders: Loaders): SalesAchievement {
  return {
    period: read.period.name,
    periodType: read.period.type,
    periodStart: read.period.start,
    periodEnd: read.period.end,
    asOf: read.asOf,
    targets: read.targets.map((t) => ({
      target: salesTargetRowOf(t.read, loaders),
      workingDays: t.days.total,
      workingDaysElapsed: t.days.elapsed,
      workingDaysRemaining: t.days.remaining,
      leaveDays: t.days.leave,
      amount: t.amount,
      quantity: t.quantity,
      productiveCalls: t.productiveCalls,
      outlets: t.outlets,
    })),
  };
}

@Resolver(() => SalesTarget)
export class SalesTargetFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation, description: 'The employee the target is for.' })
  user(@Root() target: Pick<Row<SalesTarget>, 'user'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(target.user);
  }

  @FieldResolver(() => ProductClass, { nullable: true, complexity: COST.relation, description: 'The product class the target counts; null: every product.' })
  productClass(@Root() target: Pick<Row<SalesTarget>, 'productClass'>, @Ctx() { loaders }: GraphqlContext): Related<Row<ProductClass>> | null {
    return target.productClass === null ? null : loaders.productClass.load(target.productClass);
  }
}
