import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { APPROVAL_SORT } from './approval.service';

@ArgsType()
export class ApprovalInboxArgs extends SortedPageArgs(APPROVAL_SORT) {
  @Field(() => String, { nullable: true, description: 'Only this kind (foc)' })
  kind?: string | null;
}

@InputType({ description: 'A tier of a policy: requests of at least minAmount need it. Its approver: a user, a role, or neither (any administrator).' })
export class ApprovalPolicyTierInput {
  @Field(() => Float, { description: '>= 0, two decimals, not below the previous tier' })
  minAmount!: number;

  @Field(() => Int, { nullable: true })
  approverUserId?: number | null;

  @Field(() => Int, { nullable: true })
  approverRoleId?: number | null;
}

@ObjectType('ApprovalPolicyTier', { simpleResolvers: true })
export class ApprovalPolicyTierView {
  @Field(() => Float)
  minAmount!: number;

  @Field(() => Int, { nullable: true })
  approverUserId!: number | null;

  @Field(() => Int, { nullable: true })
  approverRoleId!: number | null;
}

@ObjectType('ApprovalPolicy', { simpleResolvers: true, description: "A kind's policy: the tiers a request's amount reaches; none reached: auto-approved." })
export class ApprovalPolicyView {
  @Field()
  kind!: string;

  @Field({ description: 'True while the workspace has not set one: one tier, any administrator, for every amount.' })
  isDefault!: boolean;

  @Field(() => [ApprovalPolicyTierView])
  tiers!: ApprovalPolicyTierView[];
}

@ObjectType('ApprovalDelegate', { simpleResolvers: true, description: "Who decides a user's tiers while the user is on approved leave." })
export class ApprovalDelegateView {
  @Field(() => Int)
  userId!: number;

  @Field(() => Int, { nullable: true })
  delegateUserId!: number | null;
}
