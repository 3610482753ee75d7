import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { User } from '../users/user.entity';
import { leaveRowOf } from './leave-read';
import { Leave } from './leave.entity';
import { ApplyLeaveInput, LeaveListArgs } from './leave.types';

const LeavePage = PageOf(Leave, 'Leave');

@Authorized()
@Resolver()
export class LeaveResolver {
  @InGroup('leaves')
  @Query(() => LeavePage, { complexity: pageCost(), description: 'Leaves, latest first day first (staff; employees see their own).' })
  async leaves(@Args(() => LeaveListArgs) args: LeaveListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<Leave>>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.leaves.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => leaveRowOf(read, loaders)) });
  }

  @InGroup('leaves')
  @Query(() => Leave, { complexity: COST.record, description: "One leave (employees: their own; another's is not found)." })
  async leave(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Leave>> {
    return leaveRowOf(await services.leaves.get(ctx, id), loaders);
  }

  @InGroup('leaves')
  @Mutation(() => Leave, { complexity: COST.write, description: 'Applies for leave (open until decided); overlapping an open or approved leave of the same user is a conflict.' })
  async applyLeave(@Arg('input', () => ApplyLeaveInput) input: ApplyLeaveInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Leave>> {
    return leaveRowOf(await services.leaves.apply(ctx, input), loaders);
  }

  @InGroup('leaves')
  @Mutation(() => Leave, { complexity: COST.write, description: 'An administrator (signed in) approves an open leave of someone else.' })
  async approveLeave(
    @Arg('id', () => Int) id: number,
    @Arg('note', () => String, { nullable: true, description: 'At most 500 characters' }) note: string | null,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Leave>> {
    return leaveRowOf(await services.leaves.approve(ctx, id, note), loaders);
  }

  @InGroup('leaves')
  @Mutation(() => Leave, { complexity: COST.write, description: 'An administrator (signed in) rejects an open leave of someone else.' })
  async rejectLeave(
    @Arg('id', () => Int) id: number,
    @Arg('note', () => String, { nullable: true, description: 'At most 500 characters' }) note: string | null,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Leave>> {
    return leaveRowOf(await services.leaves.reject(ctx, id, note), loaders);
  }

  @InGroup('leaves')
  @Mutation(() => Leave, { complexity: COST.write, description: 'The applicant or an administrator cancels an open or approved leave that has a day left.' })
  async cancelLeave(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Leave>> {
    return leaveRowOf(await services.leaves.cancel(ctx, id), loaders);
  }
}

@Resolver(() => Leave)
export class LeaveFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation, description: 'Whose leave it is.' })
  user(@Root() leave: Pick<Row<Leave>, 'user'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(leave.user);
  }

  @FieldResolver(() => User, { nullable: true, complexity: COST.relation, description: 'The administrator who approved or rejected it.' })
  decidedBy(@Root() leave: Pick<Row<Leave>, 'decidedBy'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> | null {
    return leave.decidedBy === null ? null : loaders.user.load(leave.decidedBy);
  }
}
