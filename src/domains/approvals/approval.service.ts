import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { rowOf } from '../../db/entity-rows';
import { notify } from '../notifications/notify';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { requireStaff } from '../auth/permissions';
import { approvedLeaveDays } from '../leaves/leave-days';
import { Role } from '../users/role.entity';
import { User, UserType } from '../users/user.entity';
import { workspaceToday } from '../workspace/local-day';
import { ApprovalKinds } from './approval-kinds';
import { checkPolicyTiers, readPolicy, tiersFor, type PolicyRead, type PolicyTier } from './approval-policy';
import { readApprovals, type ApprovalRead } from './approval-read';
import { Approval, ApprovalDelegate, ApprovalPolicy, ApprovalPolicyTier, ApprovalStatus, ApprovalStep, ApprovalStepStatus, APPROVAL_STATUS_LABELS } from './approval.entity';

/** The inbox: oldest request first unless sorted. */
export const APPROVAL_SORT = sortable<keyof Approval & string>({
  name: 'Approval',
  fields: { created_at: 'createdAt', amount: 'amount', kind: 'kind', id: 'id' },
  default: 'created_at',
});
const APPROVAL_LIST = entityList({ entity: Approval, sort: APPROVAL_SORT });

/** Longest comment of a decision. */
export const MAX_APPROVAL_COMMENT = 500;

/** What a kind asks approval for. */
export interface ApprovalRequest {
  kind: string;
  entityId: number;
  amount: number;
}

/** A delegate setting as the API shows it. */
export interface DelegateRead {
  userId: number;
  delegateUserId: number | null;
}

/** A signed-in staff member deciding: who they are, their role, whether an administrator. */
interface Actor {
  userId: number;
  roleId: number;
  isAdmin: boolean;
}

/**
 * Generic approvals (README, Approvals): a kind asks (`request`, in its own transaction), the
 * workspace's policy of the kind picks the tiers by amount, each tier is decided in order by its
 * approver — a user (or, while that user is on approved leave today, their delegate), any user of a
 * role, or any administrator — and the final decision calls the kind's handler in the same transaction.
 */
export class ApprovalService {
  readonly kinds = new ApprovalKinds();

  /**
   * Creates the approval of a kind's record in the kind's transaction: its steps per policy, the
   * first one pending; with no tier for the amount it is approved at once (no handler call: the
   * kind reads the answer's status).
   */
  async request(tx: EntityManager, ctx: RequestContext, input: ApprovalRequest): Promise<Approval> {
    this.kinds.handler(input.kind);
    const tiers = tiersFor(await readPolicy(tx, input.kind), input.amount);
    const organizationId = ctx.organizationId;
    const approval = tx.create(Approval, {
      organizationId,
      kind: input.kind,
      entityId: input.entityId,
      amount: input.amount,
      requestedBy: ctx.userId === null ? null : tx.getReference(User, ctx.userId),
      status: tiers.length === 0 ? ApprovalStatus.APPROVED : ApprovalStatus.PENDING,
      currentTier: tiers.length === 0 ? null : 1,
      decidedAt: tiers.length === 0 ? new Date() : null,
    });
    tiers.forEach((tier, i) =>
      tx.create(ApprovalStep, {
        organizationId,
        approval,
        tier: i + 1,
        approverUser: tier.approverUserId === null ? null : tx.getReference(User, tier.approverUserId),
        approverRole: tier.approverRoleId === null ? null : tx.getReference(Role, tier.approverRoleId),
        status: i === 0 ? ApprovalStepStatus.PENDING : ApprovalStepStatus.WAITING,
      }),
    );
    await tx.flush();
    if (tiers.length > 0) await notifyApprover(tx, organizationId, approval, tiers[0].approverUserId);
    return approval;
  }

  /** Withdraws a kind's pending approval in the kind's transaction (the request was cancelled); decided ones stay as they are. */
  async cancelFor(tx: EntityManager, kind: string, entityId: number): Promise<void> {
    const approval = await tx.findOne(Approval, { kind, entityId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!approval || approval.status !== ApprovalStatus.PENDING) return;
    approval.status = ApprovalStatus.CANCELLED;
    approval.currentTier = null;
    approval.decidedAt = new Date();
    await this.skipOpenSteps(tx, approval);
    await tx.flush();
  }

  /** What the signed-in caller may decide now (pending, their tier's turn), oldest first. Customers and API keys 403. */
  async inbox(ctx: RequestContext, filter: { kind?: string | null }, pageRequest: PageRequest): Promise<Paginated<ApprovalRead>> {
    const actor = await this.actorOf(ctx);
    if (filter.kind != null) this.kinds.check('kind', filter.kind);
    const ids = await this.decidableIds(ctx, actor);
    const where = filter.kind == null ? { id: { $in: ids } } : { id: { $in: ids }, kind: filter.kind };
    const page = await readPage(ctx.em, APPROVAL_LIST, where, pageRequest);
    return { ...page, items: await readApprovals(ctx.em, page.items) };
  }

  /** One approval: administrators and API keys see every one; an employee those they asked for or may decide or did. */
  async get(ctx: RequestContext, id: number): Promise<ApprovalRead> {
    requireStaff(ctx);
    const approval = await ctx.em.findOne(Approval, { id });
    if (!approval) throw new NotFoundError('Approval', id);
    const [read] = await readApprovals(ctx.em, [rowOf(ctx.em, Approval, approval)]);
    if (!(await this.mayRead(ctx, read))) throw new NotFoundError('Approval', id);
    return read;
  }

  /** The caller approves the pending tier (409 when it is not their turn or it is decided); the last tier approves the request. */
  approve(ctx: RequestContext, id: number, comment?: string | null): Promise<ApprovalRead> {
    return this.decide(ctx, id, ApprovalStepStatus.APPROVED, comment);
  }

  /** The caller rejects at the pending tier, which rejects the request (409 when it is not their turn or it is decided). */
  reject(ctx: RequestContext, id: number, comment?: string | null): Promise<ApprovalRead> {
    return this.decide(ctx, id, ApprovalStepStatus.REJECTED, comment);
  }

  /** A kind's policy (administrators and API keys). */
  async policy(ctx: RequestContext, kind: string): Promise<PolicyRead> {
    ctx.requireAdminOrKey();
    return readPolicy(ctx.em, this.kinds.check('kind', kind));
  }

  /** Replaces a kind's policy (administrators and API keys); applies to requests made from now on. */
  async setPolicy(ctx: RequestContext, kind: string, tiers: readonly PolicyTier[]): Promise<PolicyRead> {
    ctx.requireAdminOrKey();
    this.kinds.check('kind', kind);
    const checked = await checkPolicyTiers(ctx.em, tiers);
    await ctx.em.transactional(async (tx) => {
      const organizationId = ctx.organizationId;
      let policy = await tx.findOne(ApprovalPolicy, { kind }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (policy) await tx.nativeDelete(ApprovalPolicyTier, { policy });
      else policy = tx.create(ApprovalPolicy, { organizationId, kind });
      checked.forEach((t, i) =>
        tx.create(ApprovalPolicyTier, {
          organizationId,
          policy: policy!,
          tier: i + 1,
          minAmount: t.minAmount,
          approverUser: t.approverUserId === null ? null : tx.getReference(User, t.approverUserId),
          approverRole: t.approverRoleId === null ? null : tx.getReference(Role, t.approverRoleId),
        }),
      );
      await tx.flush();
    });
    return readPolicy(ctx.em, kind);
  }

  /** A user's delegate: the user themselves or an administrator (or an API key) reads it. */
  async delegate(ctx: RequestContext, userId: number): Promise<DelegateRead> {
    await this.delegatorOf(ctx, userId);
    const found = await ctx.em.findOne(ApprovalDelegate, { user: userId });
    return { userId, delegateUserId: found?.delegate.id ?? null };
  }

  /**
   * Sets (or with null, removes) who decides in a user's place while they are on approved leave:
   * an active employee or admin other than the user. The user themselves or an administrator (or an API key).
   */
  async setDelegate(ctx: RequestContext, userId: number, delegateUserId: number | null): Promise<DelegateRead> {
    await this.delegatorOf(ctx, userId);
    if (delegateUserId !== null) {
      if (delegateUserId === userId) throw new ValidationError('delegateUserId', 'must be someone else');
      const delegate = await ctx.em.findOne(User, { id: delegateUserId, userType: { $in: [UserType.ADMIN, UserType.EMPLOYEE] }, status: ActiveStatus.ACTIVE });
      if (!delegate) throw new ValidationError('delegateUserId', 'must name an active employee or admin of this workspace');
    }
    await ctx.em.transactional(async (tx) => {
      const found = await tx.findOne(ApprovalDelegate, { user: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (delegateUserId === null) {
        if (found) tx.remove(found);
      } else if (found) {
        found.delegate = tx.getReference(User, delegateUserId);
      } else {
        tx.create(ApprovalDelegate, { organizationId: ctx.organizationId, user: tx.getReference(User, userId), delegate: tx.getReference(User, delegateUserId) });
      }
      await tx.flush();
    });
    return { userId, delegateUserId };
  }

  private async decide(ctx: RequestContext, id: number, decision: ApprovalStepStatus.APPROVED | ApprovalStepStatus.REJECTED, comment: string | null | undefined): Promise<ApprovalRead> {
    const actor = await this.actorOf(ctx);
    const text = comment == null ? null : rules.optionalText('comment', comment, MAX_APPROVAL_COMMENT) || null;
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    await ctx.em.transactional(async (tx) => {
      const approval = await tx.findOne(Approval, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!approval) throw new NotFoundError('Approval', id);
      const steps = await tx.find(ApprovalStep, { approval }, { orderBy: { tier: 'asc' } });
      const [read] = await readApprovals(tx, [rowOf(tx, Approval, approval)]);
      if (!(await this.mayRead(ctx, read))) throw new NotFoundError('Approval', id);
      if (approval.status !== ApprovalStatus.PENDING) throw new ConflictError(`Approval ${id} is ${APPROVAL_STATUS_LABELS[approval.status]}: it is decided already`);
      const step = steps.find((s) => s.tier === approval.currentTier);
      if (!step) throw new Error(`Approval ${id} is pending without a step of tier ${approval.currentTier}`);
      const turn = await this.turnOf(tx, ctx.organizationId, actor, approval, steps, step, today);
      if (turn.refusal) throw new ConflictError(`Approval ${id}: not your turn: ${turn.refusal}`);
      step.status = decision;
      step.actedBy = tx.getReference(User, actor.userId);
      step.delegatedFrom = turn.delegatedFrom === null ? null : tx.getReference(User, turn.delegatedFrom);
      step.comment = text;
      step.actedAt = new Date();
      const next = steps.find((s) => s.tier === step.tier + 1);
      if (decision === ApprovalStepStatus.APPROVED && next) {
        next.status = ApprovalStepStatus.PENDING;
        approval.currentTier = next.tier;
        await tx.flush();
        await notifyApprover(tx, ctx.organizationId, approval, next.approverUser?.id ?? null);
        return;
      }
      approval.status = decision === ApprovalStepStatus.APPROVED ? ApprovalStatus.APPROVED : ApprovalStatus.REJECTED;
      approval.currentTier = null;
      approval.decidedAt = new Date();
      for (const s of steps) if (s.status === ApprovalStepStatus.WAITING) s.status = ApprovalStepStatus.SKIPPED;
      await tx.flush();
      await this.kinds.handler(approval.kind).decided(tx, ctx, approval, approval.status);
      await tx.flush();
      const outcome = APPROVAL_STATUS_LABELS[approval.status];
      await notify(tx, ctx.organizationId, [approval.requestedBy?.id], {
        type: 'approval_decided',
        title: `Your ${approval.kind} request was ${outcome}`,
        body: `Approval ${approval.id} (${approval.kind}) was ${outcome}${text ? `: ${text}` : '.'}`,
        entity: { type: 'approval', id: approval.id },
      });
    });
    const approval = await ctx.em.findOneOrFail(Approval, { id }, { refresh: true });
    const [read] = await readApprovals(ctx.em, [rowOf(ctx.em, Approval, approval)]);
    return read;
  }

  /** Why the actor may not decide this step now, or who they stand in for. */
  private async turnOf(
    em: EntityManager,
    organizationId: number,
    actor: Actor,
    approval: Approval,
    steps: ApprovalStep[],
    step: ApprovalStep,
    today: string,
  ): Promise<{ refusal: string | null; delegatedFrom: number | null }> {
    const refuse = (refusal: string) => ({ refusal, delegatedFrom: null });
    if (approval.requestedBy?.id === actor.userId) return refuse('no one decides their own request');
    if (steps.some((s) => s.actedBy?.id === actor.userId)) return refuse('you decided another tier of it: each tier is someone else');
    const userId = step.approverUser?.id ?? null;
    const roleId = step.approverRole?.id ?? null;
    if (userId !== null) {
      if (userId === actor.userId) return { refusal: null, delegatedFrom: null };
      // A tier whose approver asked for the request themselves falls to any administrator, so it never waits on no one.
      if (userId === approval.requestedBy?.id && actor.isAdmin) return { refusal: null, delegatedFrom: null };
      if ((await this.delegatorsOnLeave(em, organizationId, actor.userId, today)).includes(userId)) return { refusal: null, delegatedFrom: userId };
      return refuse(`tier ${step.tier} is user ${userId}'s to decide (or their delegate's while they are on leave)`);
    }
    if (roleId !== null) return roleId === actor.roleId ? { refusal: null, delegatedFrom: null } : refuse(`tier ${step.tier} is for role ${roleId}`);
    return actor.isAdmin ? { refusal: null, delegatedFrom: null } : refuse(`tier ${step.tier} is for an administrator`);
  }

  /** The users who named the actor their delegate and are on approved leave today (one level: a delegate's own delegate is not followed). */
  private async delegatorsOnLeave(em: EntityManager, organizationId: number, actorId: number, today: string): Promise<number[]> {
    const settings = await em.find(ApprovalDelegate, { delegate: actorId });
    if (settings.length === 0) return [];
    const onLeave = await approvedLeaveDays(em, organizationId, settings.map((s) => s.user.id), today, today);
    return [...onLeave.keys()];
  }

  /** Ids of the pending approvals whose current tier the actor may decide now. */
  private async decidableIds(ctx: RequestContext, actor: Actor): Promise<number[]> {
    const today = await workspaceToday(ctx.em, ctx.organizationId);
    const standIn = await this.delegatorsOnLeave(ctx.em, ctx.organizationId, actor.userId, today);
    const t = tenantSql(ctx.organizationId, 'a');
    const rows = await executeSql<{ id: number }>(
      ctx.em,
      sql`select a.id from approval a
          ${t.join('approval_step', 's', 's.approval_id = a.id and s.tier = a.current_tier')}
          where ${t.owns()} and a.status = ${ApprovalStatus.PENDING}
            and a.requested_by_user_id is distinct from ${actor.userId}::int
            and not exists (select 1 from approval_step d where d.organization_id = a.organization_id and d.approval_id = a.id and d.acted_by_user_id = ${actor.userId})
            and (s.approver_user_id = ${actor.userId}
                 or s.approver_user_id = any(${`{${standIn.join(',')}}`}::int[])
                 or (s.approver_user_id = a.requested_by_user_id and ${actor.isAdmin}::boolean)
                 or s.approver_role_id = ${actor.roleId}
                 or (s.approver_user_id is null and s.approver_role_id is null and ${actor.isAdmin}::boolean))`,
    );
    return rows.map((r) => Number(r.id));
  }

  /** Administrators and keys read every approval; an employee one they asked for, may decide now, or have decided. */
  private async mayRead(ctx: RequestContext, read: ApprovalRead): Promise<boolean> {
    const principal = ctx.requirePrincipal();
    if (principal.kind === 'apiKey' || principal.userType === UserType.ADMIN) return true;
    const me = principal.userId;
    if (read.approval.requestedBy === me) return true;
    if (read.steps.some((s) => s.actedBy === me || s.approverUser === me)) return true;
    return (await this.decidableIds(ctx, await this.actorOf(ctx))).includes(read.approval.id);
  }

  /** The signed-in staff member (decisions name a person: API keys and customers 403). */
  private async actorOf(ctx: RequestContext): Promise<Actor> {
    requireStaff(ctx);
    const session = ctx.requireSession();
    const user = await ctx.em.findOne(User, { id: session.userId });
    if (!user) throw new ForbiddenError('Your user is not in this workspace');
    return { userId: user.id, roleId: user.role.id, isAdmin: user.userType === UserType.ADMIN };
  }

  /** Whose delegate may be read or set: the caller's own, or anyone's for administrators and keys. */
  private async delegatorOf(ctx: RequestContext, userId: number): Promise<void> {
    requireStaff(ctx);
    const principal = ctx.requirePrincipal();
    if (principal.kind === 'session' && principal.userType !== UserType.ADMIN && principal.userId !== userId) {
      throw new ForbiddenError('Only administrators set another user’s delegate');
    }
    const user = await ctx.em.findOne(User, { id: userId, userType: { $in: [UserType.ADMIN, UserType.EMPLOYEE] } });
    if (!user) throw new NotFoundError('User', userId);
  }

  private async skipOpenSteps(tx: EntityManager, approval: Approval): Promise<void> {
    const steps = await tx.find(ApprovalStep, { approval, status: { $in: [ApprovalStepStatus.WAITING, ApprovalStepStatus.PENDING] } });
    for (const s of steps) s.status = ApprovalStepStatus.SKIPPED;
  }
}

/**
 * The inbox row of the approver whose turn it is (a named user; a tier any holder of a role or
 * any administrator decides notifies no one: they see it in their approval inbox).
 */
function notifyApprover(tx: EntityManager, organizationId: number, approval: Approval, approverUserId: number | null): Promise<void> {
  return notify(tx, organizationId, [approverUserId], {
    type: 'approval_requested',
    title: `Approval requested: ${approval.kind}`,
    body: `A ${approval.kind} request (approval ${approval.id}, amount ${Number(approval.amount).toFixed(2)}) waits for your decision.`,
    entity: { type: 'approval', id: approval.id },
  });
}
