import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import type { ApprovalRead } from './approval-read';
import { Approval, ApprovalStep } from './approval.entity';
import { ApprovalDelegateView, ApprovalInboxArgs, ApprovalPolicyTierInput, ApprovalPolicyView } from './approval.types';

const ApprovalPage = PageOf(Approval, 'Approval');
type ApprovalRow = Row<Approval> & { steps: Array<Row<ApprovalStep>> };
/** GraphQL's row of an approval: its steps come with it. */
const rowOfRead = ({ approval, steps }: ApprovalRead): ApprovalRow => ({ ...approval, steps });

@Authorized()
@Resolver()
export class ApprovalResolver {
  @InGroup('approvals')
  @Query(() => ApprovalPage, { complexity: pageCost(), description: 'What the signed-in caller may decide now, oldest first.' })
  async approvalInbox(@Args(() => ApprovalInboxArgs) args: ApprovalInboxArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<ApprovalRow>> {
    const { page, limit, sort, kind } = args;
    const found = await services.approvals.inbox(ctx, { kind }, { page, limit, sort });
    return toPage({ ...found, items: found.items.map(rowOfRead) });
  }

  @InGroup('approvals')
  @Query(() => Approval, { complexity: COST.record, description: 'One approval with its steps.' })
  async approval(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<ApprovalRow> {
    return rowOfRead(await services.approvals.get(ctx, id));
  }

  @InGroup('approvals')
  @Mutation(() => Approval, { complexity: COST.write, description: 'Approves the pending tier (it must be your turn).' })
  async approveApproval(
    @Arg('id', () => Int) id: number,
    @Arg('comment', () => String, { nullable: true, description: 'At most 500 characters' }) comment: string | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<ApprovalRow> {
    return rowOfRead(await services.approvals.approve(ctx, id, comment));
  }

  @InGroup('approvals')
  @Mutation(() => Approval, { complexity: COST.write, description: 'Rejects at the pending tier, which rejects the request (it must be your turn).' })
  async rejectApproval(
    @Arg('id', () => Int) id: number,
    @Arg('comment', () => String, { nullable: true, description: 'At most 500 characters' }) comment: string | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<ApprovalRow> {
    return rowOfRead(await services.approvals.reject(ctx, id, comment));
  }

  @InGroup('approvals')
  @Query(() => ApprovalPolicyView, { complexity: COST.record, description: "A kind's approval policy (administrators)." })
  async approvalPolicy(@Arg('kind') kind: string, @Ctx() { ctx, services }: GraphqlContext): Promise<ApprovalPolicyView> {
    return services.approvals.policy(ctx, kind);
  }

  @InGroup('approvals')
  @Mutation(() => ApprovalPolicyView, { complexity: COST.write, description: "Replaces a kind's approval policy (administrators); applies to new requests." })
  async setApprovalPolicy(
    @Arg('kind') kind: string,
    @Arg('tiers', () => [ApprovalPolicyTierInput]) tiers: ApprovalPolicyTierInput[],
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<ApprovalPolicyView> {
    return services.approvals.setPolicy(
      ctx,
      kind,
      tiers.map((t) => ({ minAmount: t.minAmount, approverUserId: t.approverUserId ?? null, approverRoleId: t.approverRoleId ?? null })),
    );
  }

  @InGroup('approvals')
  @Query(() => ApprovalDelegateView, { complexity: COST.record, description: "A user's delegate (their own, or anyone's for administrators)." })
  async approvalDelegate(@Arg('userId', () => Int) userId: number, @Ctx() { ctx, services }: GraphqlContext): Promise<ApprovalDelegateView> {
    return services.approvals.delegate(ctx, userId);
  }

  @InGroup('approvals')
  @Mutation(() => ApprovalDelegateView, { complexity: COST.write, description: "Sets (null: removes) who decides a user's tiers while the user is on approved leave." })
  async setApprovalDelegate(
    @Arg('userId', () => Int) userId: number,
    @Arg('delegateUserId', () => Int, { nullable: true }) delegateUserId: number | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<ApprovalDelegateView> {
    return services.approvals.setDelegate(ctx, userId, delegateUserId ?? null);
  }
}

@Resolver(() => Approval)
export class ApprovalFieldsResolver {
  @FieldResolver(() => [ApprovalStep], { complexity: listCost(COST.property, 2), description: 'Its tiers, in order (none when auto-approved).' })
  steps(@Root() approval: Partial<ApprovalRow>): Array<Row<ApprovalStep>> {
    return approval.steps ?? [];
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Who asked (null: an API key).' })
  requestedByUserId(@Root() approval: Pick<Row<Approval>, 'requestedBy'>): number | null {
    return approval.requestedBy;
  }
}

@Resolver(() => ApprovalStep)
export class ApprovalStepFieldsResolver {
  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The user who decides this tier (or their delegate while they are on approved leave).' })
  approverUserId(@Root() step: Pick<Row<ApprovalStep>, 'approverUser'>): number | null {
    return step.approverUser;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Any active user of this role decides this tier. Neither user nor role: any administrator.' })
  approverRoleId(@Root() step: Pick<Row<ApprovalStep>, 'approverRole'>): number | null {
    return step.approverRole;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Who decided it.' })
  actedByUserId(@Root() step: Pick<Row<ApprovalStep>, 'actedBy'>): number | null {
    return step.actedBy;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The approver on leave whose delegate decided.' })
  delegatedFromUserId(@Root() step: Pick<Row<ApprovalStep>, 'delegatedFrom'>): number | null {
    return step.delegatedFrom;
  }
}
