import { Arg, Args, ArgsType, Authorized, Ctx, Field, Int, Mutation, Query, Resolver } from 'type-graphql';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { SortedPageArgs } from '../../graphql/sort.types';
import { LIVE_SORT } from './tracking-statements';
import { LivePosition, Trail, TrackPositionsInput, TrackPositionsResult } from './tracking.types';

const LivePositionPage = PageOf(LivePosition, 'LivePosition');

@ArgsType()
class LivePositionsArgs extends SortedPageArgs(LIVE_SORT) {
  @Field(() => Int, { nullable: true, description: 'Only this employee or admin (400 when not one of this workspace).' })
  userId?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Only users checked in now (true) or not (false).' })
  onDuty?: boolean | null;
}

/** Points a trail is assumed to hold for its cost (a day of one fix a minute over a 10-hour shift). */
const ASSUMED_TRAIL_POINTS = 600;

@Authorized()
@Resolver()
export class TrackingResolver {
  @InGroup('tracking')
  @Mutation(() => TrackPositionsResult, { complexity: COST.write, description: 'Stores a batch of 1–500 positions of the signed-in staff member; only while checked in (else CONFLICT).' })
  async trackPositions(@Arg('input', () => TrackPositionsInput) input: TrackPositionsInput, @Ctx() { ctx, services }: GraphqlContext): Promise<TrackPositionsResult> {
    return services.tracking.track(ctx, input);
  }

  @InGroup('tracking')
  @Query(() => LivePositionPage, { complexity: pageCost(), description: 'The latest position of each staff user who has one (staff; employees see their own).' })
  async livePositions(@Args(() => LivePositionsArgs) args: LivePositionsArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<LivePosition>> {
    const { page, limit, sort, ...filter } = args;
    return toPage(await services.tracking.live(ctx, filter, { page, limit, sort }));
  }

  @InGroup('tracking')
  @Query(() => Trail, { complexity: listCost(COST.record, ASSUMED_TRAIL_POINTS), description: 'One user’s positions of a local day (default today), oldest first, at most 20,000, with the distance.' })
  async trail(
    @Arg('userId', () => Int, { nullable: true, description: 'Default: the signed-in user (required with an API key).' }) userId: number | null,
    @Arg('date', () => String, { nullable: true, description: 'YYYY-MM-DD, the workspace’s local day (default today).' }) date: string | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Trail> {
    const read = await services.tracking.trail(ctx, { userId, date });
    const { user, ...rest } = read;
    return { ...rest, userId: user.id, userName: `${user.firstName} ${user.lastName}` };
  }
}
