import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { Role } from '../users/role.entity';
import { User } from '../users/user.entity';

/** status of an approval: pending → approved | rejected | cancelled (the request was withdrawn). */
export enum ApprovalStatus {
  PENDING = 1,
  APPROVED = 2,
  REJECTED = 3,
  CANCELLED = 4,
}
registerEnumType(ApprovalStatus, { name: 'ApprovalStatus', description: '1 pending, 2 approved, 3 rejected, 4 cancelled' });

/** status of one step (tier): waiting (a lower tier first) → pending (its turn) → approved | rejected | skipped. */
export enum ApprovalStepStatus {
  WAITING = 1,
  PENDING = 2,
  APPROVED = 3,
  REJECTED = 4,
  SKIPPED = 5,
}
registerEnumType(ApprovalStepStatus, { name: 'ApprovalStepStatus', description: '1 waiting, 2 pending, 3 approved, 4 rejected, 5 skipped' });

/** Labels of the approval status codes. */
export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, string> = {
  [ApprovalStatus.PENDING]: 'pending',
  [ApprovalStatus.APPROVED]: 'approved',
  [ApprovalStatus.REJECTED]: 'rejected',
  [ApprovalStatus.CANCELLED]: 'cancelled',
};

/**
 * One generic approval of a record of some kind (`foc`; leaves and scheme claims later): who asked,
 * for how much, and its tiers (steps) decided in order. Auto-approved requests have no steps.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'approval' })
@Unique({ properties: ['organizationId', 'kind', 'entityId'] })
@Index({ properties: ['organizationId', 'status', 'createdAt'] })
export class Approval extends TenantEntity<'status' | 'currentTier' | 'requestedBy' | 'decidedAt'> {
  @Field({ description: 'What is approved: a registered kind (foc).' })
  @Property({ length: 32 })
  kind!: string;

  @Field(() => Int, { description: "The id of the kind's record (a FOC request's id)." })
  @Property({ type: 'integer' })
  entityId!: number;

  @Field(() => Float)
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;

  @ManyToOne(() => User, { nullable: true, fieldName: 'requested_by_user_id' })
  requestedBy: User | null = null;

  @Field(() => ApprovalStatus)
  @Property({ type: 'smallint' })
  status: ApprovalStatus = ApprovalStatus.PENDING;

  @Field(() => Int, { nullable: true, description: 'The tier whose turn it is while pending.' })
  @Property({ type: 'smallint', nullable: true })
  currentTier: number | null = null;

  @Field(() => Date, { nullable: true, description: 'When it was approved, rejected or cancelled.' })
  @Property({ type: 'datetime', nullable: true })
  decidedAt: Date | null = null;
}

/** One tier of an approval: its approver (a user, a role, or any administrator) and its decision. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'approval_step' })
@Unique({ properties: ['organizationId', 'approval', 'tier'] })
export class ApprovalStep extends TenantEntity<'status' | 'approverUser' | 'approverRole' | 'actedBy' | 'delegatedFrom' | 'comment' | 'actedAt'> {
  @ManyToOne(() => Approval, { fieldName: 'approval_id', deleteRule: 'cascade' })
  approval!: Approval;

  @Field(() => Int, { description: '1, 2, …: decided in order.' })
  @Property({ type: 'smallint' })
  tier!: number;

  @ManyToOne(() => User, { nullable: true, fieldName: 'approver_user_id' })
  approverUser: User | null = null;

  @ManyToOne(() => Role, { nullable: true, fieldName: 'approver_role_id' })
  approverRole: Role | null = null;

  @Field(() => ApprovalStepStatus)
  @Property({ type: 'smallint' })
  status: ApprovalStepStatus = ApprovalStepStatus.WAITING;

  @ManyToOne(() => User, { nullable: true, fieldName: 'acted_by_user_id' })
  actedBy: User | null = null;

  @ManyToOne(() => User, { nullable: true, fieldName: 'delegated_from_user_id' })
  delegatedFrom: User | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 500, nullable: true })
  comment: string | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  actedAt: Date | null = null;
}

/** A workspace's policy of one kind; its tiers are ApprovalPolicyTier rows. Without one, the default (README). */
@Entity({ tableName: 'approval_policy' })
@Unique({ properties: ['organizationId', 'kind'] })
export class ApprovalPolicy extends TenantEntity {
  @Property({ length: 32 })
  kind!: string;
}

/** A tier of a policy: it applies to requests of at least `minAmount`. */
@Entity({ tableName: 'approval_policy_tier' })
@Unique({ properties: ['organizationId', 'policy', 'tier'] })
export class ApprovalPolicyTier extends TenantEntity<'approverUser' | 'approverRole'> {
  @ManyToOne(() => ApprovalPolicy, { fieldName: 'approval_policy_id', deleteRule: 'cascade' })
  policy!: ApprovalPolicy;

  @Property({ type: 'smallint' })
  tier!: number;

  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  minAmount!: number;

  @ManyToOne(() => User, { nullable: true, fieldName: 'approver_user_id', deleteRule: 'cascade' })
  approverUser: User | null = null;

  @ManyToOne(() => Role, { nullable: true, fieldName: 'approver_role_id', deleteRule: 'cascade' })
  approverRole: Role | null = null;
}

/** Who decides in a user's place while the user is on approved leave. */
@Entity({ tableName: 'approval_delegate' })
@Unique({ properties: ['organizationId', 'user'] })
@Index({ properties: ['organizationId', 'delegate'] })
export class ApprovalDelegate extends TenantEntity {
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => User, { fieldName: 'delegate_user_id', deleteRule: 'cascade' })
  delegate!: User;
}
