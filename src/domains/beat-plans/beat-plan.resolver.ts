import { Arg, Args, ArgsType, Authorized, Ctx, Field, InputType, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { SortedPageArgs } from '../../graphql/sort.types';
import { BeatFrequency } from './beat-plan.entity';
import { BEAT_PLAN_SORT } from './beat-plan.service';
import { BeatPlanDayType, BeatPlanTemplateType, dayOf, templateOf } from './beat-plan.types';

const BeatPlanTemplatePage = PageOf(BeatPlanTemplateType, 'BeatPlanTemplate');
/** Employees with a plan on one day, as a workspace's day view assumes them. */
const ASSUMED_DAY_PLANS = 100;

@ArgsType()
class BeatPlanTemplateListArgs extends SortedPageArgs(BEAT_PLAN_SORT) {
  @Field(() => Int, { nullable: true }) userId?: number | null;
  @Field(() => Int, { nullable: true }) routeId?: number | null;
  @Field(() => Int, { nullable: true, description: 'ISO weekday 1–7' }) weekday?: number | null;
  @Field(() => ActiveStatus, { nullable: true }) status?: ActiveStatus | null;
}

@InputType()
class CreateBeatPlanTemplateInput {
  @Field(() => Int) userId!: number;
  @Field(() => Int) routeId!: number;
  @Field(() => Int, { description: 'ISO weekday: 1 Monday … 7 Sunday' }) weekday!: number;
  @Field(() => BeatFrequency, { nullable: true, description: 'Default WEEKLY' }) frequency?: BeatFrequency | null;
  @Field({ description: 'YYYY-MM-DD' }) effectiveFrom!: string;
  @Field(() => String, { nullable: true }) effectiveTo?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Outlet ids in visiting order; omitted: the route’s active outlets by name' })
  outlets?: number[] | null;
}

@InputType()
class UpdateBeatPlanTemplateInput {
  @Field(() => Int, { nullable: true }) userId?: number | null;
  @Field(() => Int, { nullable: true }) routeId?: number | null;
  @Field(() => Int, { nullable: true }) weekday?: number | null;
  @Field(() => BeatFrequency, { nullable: true }) frequency?: BeatFrequency | null;
  @Field(() => String, { nullable: true }) effectiveFrom?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears it (open-ended); omitted keeps it' }) effectiveTo?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Replaces the outlet list (visiting order)' }) outlets?: number[] | null;
}

/** Nullable GraphQL fields: null and omitted both keep the value, except effectiveTo (null clears). */
function updateOf(input: UpdateBeatPlanTemplateInput) {
  return {
    userId: input.userId ?? undefined,
    routeId: input.routeId ?? undefined,
    weekday: input.weekday ?? undefined,
    frequency: input.frequency ?? undefined,
    effectiveFrom: input.effectiveFrom ?? undefined,
    effectiveTo: input.effectiveTo,
    outlets: input.outlets ?? undefined,
  };
}

@Authorized()
@Resolver()
export class BeatPlanResolver {
  @InGroup('beat_plans')
  @Query(() => BeatPlanTemplatePage, { complexity: pageCost(), description: 'Beat plan templates (staff; employees see their own).' })
  async beatPlanTemplates(@Args(() => BeatPlanTemplateListArgs) args: BeatPlanTemplateListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<BeatPlanTemplateType>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.beatPlans.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map(templateOf) });
  }

  @InGroup('beat_plans')
  @Query(() => BeatPlanTemplateType, { complexity: COST.record })
  async beatPlanTemplate(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<BeatPlanTemplateType> {
    return templateOf(await services.beatPlans.get(ctx, id));
  }

  @InGroup('beat_plans')
  @Query(() => [BeatPlanDayType], {
    complexity: listCost(COST.page, ASSUMED_DAY_PLANS),
    description: 'Day plans of a local day (default today): frozen once the day started; per outlet visited and productive.',
  })
  async beatPlanDays(
    @Arg('date', () => String, { nullable: true }) date: string | null,
    @Arg('userId', () => Int, { nullable: true }) userId: number | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<BeatPlanDayType[]> {
    return (await services.beatPlans.days(ctx, { date, userId })).map(dayOf);
  }

  @InGroup('beat_plans')
  @Mutation(() => BeatPlanTemplateType, { complexity: COST.write })
  async createBeatPlanTemplate(@Arg('input', () => CreateBeatPlanTemplateInput) input: CreateBeatPlanTemplateInput, @Ctx() { ctx, services }: GraphqlContext): Promise<BeatPlanTemplateType> {
    return templateOf(await services.beatPlans.create(ctx, { ...input, frequency: input.frequency ?? undefined }));
  }

  @InGroup('beat_plans')
  @Mutation(() => BeatPlanTemplateType, { complexity: COST.write, description: 'Changes a template; started days keep their frozen plan.' })
  async updateBeatPlanTemplate(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateBeatPlanTemplateInput) input: UpdateBeatPlanTemplateInput,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<BeatPlanTemplateType> {
    return templateOf(await services.beatPlans.update(ctx, id, updateOf(input)));
  }

  @InGroup('beat_plans')
  @Mutation(() => BeatPlanTemplateType, { complexity: COST.write, description: 'Soft delete (status INACTIVE).' })
  async deactivateBeatPlanTemplate(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<BeatPlanTemplateType> {
    return templateOf(await services.beatPlans.deactivate(ctx, id));
  }
}
