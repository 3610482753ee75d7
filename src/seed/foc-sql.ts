import type { ClientBase } from 'pg';
import { ApprovalStatus, ApprovalStepStatus } from '../domains/approvals/approval.entity';
import { FOC_KIND } from '../domains/foc/foc.service';
import { FocReason, FocStatus } from '../domains/foc/foc.entity';
import { UserType } from '../domains/users/user.entity';
import type { RowCounts } from './masters-sql';
import { KeyedRandom } from './random';
import { addDays, localInstant } from './workspace-plan';

/*
 * FOC requests and their approvals, for one seeded workspace (after its orders).
 *
 * - The workspace's `foc` approval policy: tier 1 from ₹2,000 decided by the Area Manager role, tier 2
 *   from ₹20,000 by the first administrator; under ₹2,000 a request is approved when submitted.
 * - Every FOC order of the orders statement (zero-priced, no scheme: two in a hundred orders of the
 *   last year) is the fulfilment of a request for its very lines at the variants' selling prices,
 *   submitted 1-3 days before by an employee, approved by its tiers (an Area Manager, then the
 *   administrator) hours after, fulfilled when the order was placed (by the administrator).
 * - Open requests of the last four weeks in every other state: pending at tier 1 and at tier 2,
 *   approved (at once and by tiers) and not yet fulfilled, rejected at tier 1 and at tier 2, and one
 *   cancelled while pending. Their tiers follow the policy from their amount, as the service's
 *   submit would; steps after a rejection or a cancel are skipped.
 * Every timestamp is before the as-of day; values come from KeyedRandom.
 */

export const FOC_POLICY: ReadonlyArray<{ minAmount: number; approver: 'Area Manager' | 'admin' }> = [
  { minAmount: 2_000, approver: 'Area Manager' },
  { minAmount: 20_000, approver: 'admin' },
];

type Outcome = 'fulfilled' | 'approved' | 'pending' | 'rejected' | 'cancelled';

interface PlannedRequest {
  customer: number;
  requester: number;
  reason: FocReason;
  remarks: string;
  lines: Array<{ variant: number; quantity: number; unitPaise: number }>;
  createdAt: Date;
  outcome: Outcome;
  /** The tier the request stops at (pending, rejected); 0 otherwise. */
  atTier: number;
  fulfilledOrder: number | null;
  fulfilledAt: Date | null;
}

const REMARKS: Record<FocReason, string[]> = {
  [FocReason.SAMPLE]: ['Samples for a new outlet', 'Tasting samples for the weekly market'],
  [FocReason.REPLACEMENT]: ['Leaking pouches replaced', 'Damaged in transit, replaced'],
  [FocReason.PROMOTION]: ['Display promotion', 'Festival stall promotion'],
  [FocReason.OTHER]: ['Goodwill after a delayed delivery', 'Staff function'],
};

const HOUR = 3_600_000;

export async function insertFoc(
  client: ClientBase,
  options: { key: string; organizationId: number; asOf: string; focOrderIds: number[]; adminUserId: number },
  counts: RowCounts,
): Promise<void> {
  const org = options.organizationId;
  const r = new KeyedRandom(`${options.key}:foc`);
  const staff = (
    await client.query<{ id: number; user_type: number; role_id: number; role: string }>(
      `select u.id, u.user_type, u.role_id, r.name as role from app_user u join role r on r.organization_id = u.organization_id and r.id = u.role_id
        where u.organization_id = $1 and u.status = 1 and u.user_type in ($2, $3) order by u.id`,
      [org, UserType.ADMIN, UserType.EMPLOYEE],
    )
  ).rows;
  const roles = (await client.query<{ id: number; name: string }>('select id, name from role where organization_id = $1', [org])).rows;
  const areaRole = roles.find((x) => x.name === 'Area Manager') ?? null;
  const manager = staff.find((u) => u.role === 'Area Manager' && u.user_type === UserType.EMPLOYEE) ?? null;
  const admin = options.adminUserId;
  // Tier 1 by the Area Manager role when someone active holds it, else by any administrator (the second one).
  const tier1Role = manager ? areaRole!.id : null;
  const tier1Actor = manager?.id ?? staff.find((u) => u.user_type === UserType.ADMIN && u.id !== admin)?.id ?? admin;
  const requesters = staff.filter((u) => u.user_type === UserType.EMPLOYEE && u.id !== tier1Actor).map((u) => u.id);
  if (requesters.length === 0) return;
  const customers = (
    await client.query<{ id: number }>(`select id from app_user where organization_id = $1 and status = 1 and user_type in ($2, $3) order by id`, [org, UserType.DISTRIBUTOR, UserType.RETAILER])
  ).rows.map((u) => u.id);
  const variants = (
    await client.query<{ id: number; sp: string }>(
      `select v.id, v.sp from product_variant v join product p on p.organization_id = v.organization_id and p.id = v.product_id
        where v.organization_id = $1 and v.status = 1 and p.status = 1 order by v.item_sku_code`,
      [org],
    )
  ).rows.map((v) => ({ id: v.id, paise: Math.round(Number(v.sp) * 100) }));
  const policyAt = localInstant(addDays(options.asOf, -400), 10 * 3600);

  // The policy.
  const [{ id: policyId }] = (
    await client.query<{ id: number }>(`insert into approval_policy (organization_id, kind, created_at, updated_at) values ($1, $2, $3, $3) returning id`, [org, FOC_KIND, policyAt])
  ).rows;
  await client.query(
    `insert into approval_policy_tier (organization_id, approval_policy_id, tier, min_amount, approver_user_id, approver_role_id, created_at, updated_at)
     values ($1, $2, 1, $3, null, $4, $6, $6), ($1, $2, 2, $5, $7, null, $6, $6)`,
    [org, policyId, FOC_POLICY[0].minAmount, tier1Role, FOC_POLICY[1].minAmount, policyAt, admin],
  );
  counts.approval_policy = (counts.approval_policy ?? 0) + 1;
  counts.approval_policy_tier = (counts.approval_policy_tier ?? 0) + 2;

  const planned: PlannedRequest[] = [];
  const reasonOf = (k: string) => (1 + r.below(`${k}:reason`, 4)) as FocReason;
  const base = (k: string) => {
    const reason = reasonOf(k);
    return { customer: r.pick(`${k}:customer`, customers), requester: r.pick(`${k}:requester`, requesters), reason, remarks: r.pick(`${k}:remarks`, REMARKS[reason]) };
  };

  // The fulfilled ones: the FOC orders' lines.
  if (options.focOrderIds.length > 0) {
    const { rows } = await client.query<{ id: number; customer_id: number; created_at: Date; variants: number[]; quantities: number[] }>(
      `select o.id, o.customer_id, o.created_at, array_agg(i.product_variant_id order by i.id) as variants, array_agg(i.quantity order by i.id) as quantities
         from sales_order o join order_item i on i.organization_id = o.organization_id and i.order_id = o.id
        where o.organization_id = $1 and o.id = any($2::int[]) group by o.id order by o.id`,
      [org, options.focOrderIds],
    );
    const price = new Map(variants.map((v) => [v.id, v.paise]));
    for (const [i, o] of rows.entries()) {
      const k = `order${i}`;
      planned.push({
        ...base(k),
        customer: o.customer_id,
        lines: o.variants.map((v, i) => ({ variant: v, quantity: o.quantities[i], unitPaise: price.get(v)! })),
        createdAt: new Date(o.created_at.getTime() - (26 + r.below(`${k}:ahead`, 46)) * HOUR),
        outcome: 'fulfilled',
        atTier: 0,
        fulfilledOrder: o.id,
        fulfilledAt: o.created_at,
      });
    }
  }

  // The open ones: [outcome, tier it stops at, amount band].
  const open: Array<[Outcome, number, 'small' | 'mid' | 'large']> = [
    ['pending', 1, 'mid'],
    ['pending', 1, 'large'],
    ['pending', 2, 'large'],
    ['approved', 0, 'small'],
    ['approved', 0, 'mid'],
    ['rejected', 1, 'mid'],
    ['rejected', 2, 'large'],
    ['cancelled', 1, 'mid'],
  ];
  const band = { small: [40_000, 150_000], mid: [300_000, 1_500_000], large: [2_500_000, 6_000_000] } as const;
  open.forEach(([outcome, atTier, size], n) => {
    const k = `open${n}`;
    const count = 1 + r.below(`${k}:lines`, 3);
    const target = r.between(`${k}:amount`, band[size][0], band[size][1]);
    // Cheap variants for small requests, so one unit never crosses the first tier.
    const pool = size === 'small' ? variants.filter((v) => v.paise <= 20_000) : variants;
    const from = pool.length > 0 ? pool : variants;
    const chosen = r.sample(`${k}:variants`, from, Math.min(count, from.length));
    const lines = chosen.map((v) => ({ variant: v.id, quantity: Math.max(1, Math.floor(target / chosen.length / v.paise)), unitPaise: v.paise }));
    const day = addDays(options.asOf, -3 - r.below(`${k}:day`, 26));
    planned.push({
      ...base(k),
      lines,
      createdAt: localInstant(day, 10 * 3600 + r.below(`${k}:second`, 6 * 3600)),
      outcome,
      atTier,
      fulfilledOrder: null,
      fulfilledAt: null,
    });
  });
  if (planned.length === 0) return;

  // What the policy gives each (as submit does), and the states that follow.
  const rows = planned.map((p, n) => {
    const totalPaise = p.lines.reduce((s, l) => s + l.quantity * l.unitPaise, 0);
    const tiers = FOC_POLICY.filter((t) => totalPaise >= t.minAmount * 100).length;
    let outcome = p.outcome;
    let atTier = Math.min(p.atTier, tiers);
    // A request under the first tier is approved when submitted: it cannot wait or be rejected.
    if (tiers === 0 && (outcome === 'pending' || outcome === 'rejected' || outcome === 'cancelled')) outcome = 'approved';
    if ((outcome === 'pending' || outcome === 'rejected' || outcome === 'cancelled') && atTier === 0) atTier = 1;
    const steps: Array<{ tier: number; userId: number | null; roleId: number | null; status: ApprovalStepStatus; actedBy: number | null; actedAt: Date | null; comment: string | null }> = [];
    let decidedAt: Date | null = tiers === 0 ? p.createdAt : null;
    for (let tier = 1; tier <= tiers; tier += 1) {
      const at = new Date(p.createdAt.getTime() + (2 + 3 * (tier - 1) + r.below(`r${n}:t${tier}`, 2)) * HOUR);
      const actor = tier === 1 ? tier1Actor : admin;
      let status: ApprovalStepStatus;
      if (outcome === 'approved' || outcome === 'fulfilled' || tier < atTier) status = ApprovalStepStatus.APPROVED;
      else if (tier === atTier) status = outcome === 'pending' ? ApprovalStepStatus.PENDING : outcome === 'rejected' ? ApprovalStepStatus.REJECTED : ApprovalStepStatus.SKIPPED;
      else status = outcome === 'pending' ? ApprovalStepStatus.WAITING : ApprovalStepStatus.SKIPPED;
      const acted = status === ApprovalStepStatus.APPROVED || status === ApprovalStepStatus.REJECTED;
      steps.push({
        tier,
        userId: tier === 1 ? null : admin,
        roleId: tier === 1 ? tier1Role : null,
        status,
        actedBy: acted ? actor : null,
        actedAt: acted ? at : null,
        comment: status === ApprovalStepStatus.REJECTED ? 'Over the month’s FOC allowance' : null,
      });
      if (acted) decidedAt = at;
    }
    const cancelledAt = outcome === 'cancelled' ? new Date(p.createdAt.getTime() + 20 * HOUR) : null;
    const approvalStatus = { fulfilled: ApprovalStatus.APPROVED, approved: ApprovalStatus.APPROVED, pending: ApprovalStatus.PENDING, rejected: ApprovalStatus.REJECTED, cancelled: ApprovalStatus.CANCELLED }[outcome];
    if (outcome === 'pending') decidedAt = null;
    if (outcome === 'cancelled') decidedAt = cancelledAt;
    const focStatus = { fulfilled: FocStatus.FULFILLED, approved: FocStatus.APPROVED, pending: FocStatus.SUBMITTED, rejected: FocStatus.REJECTED, cancelled: FocStatus.CANCELLED }[outcome];
    const updatedAt = p.fulfilledAt ?? cancelledAt ?? decidedAt ?? p.createdAt;
    return { p, totalPaise, steps, decidedAt, cancelledAt, approvalStatus, focStatus, currentTier: outcome === 'pending' ? atTier : null, updatedAt };
  });

  const requestIds = (
    await client.query<{ id: number }>(
      `insert into foc_request (organization_id, customer_id, requested_by_user_id, reason, remarks, total_cost, status, fulfilled_order_id, fulfilled_at, cancelled_at, created_at, updated_at)
       select $1, c, rq, rs, rm, tc, st, fo, fa, ca, cr, up
         from unnest($2::int[], $3::int[], $4::smallint[], $5::text[], $6::numeric[], $7::smallint[], $8::int[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])
              with ordinality as x(c, rq, rs, rm, tc, st, fo, fa, ca, cr, up, n)
        order by n returning id`,
      [
        org,
        rows.map((x) => x.p.customer), rows.map((x) => x.p.requester), rows.map((x) => x.p.reason), rows.map((x) => x.p.remarks),
        rows.map((x) => x.totalPaise / 100), rows.map((x) => x.focStatus), rows.map((x) => x.p.fulfilledOrder), rows.map((x) => x.p.fulfilledAt),
        rows.map((x) => x.cancelledAt), rows.map((x) => x.p.createdAt), rows.map((x) => x.updatedAt),
      ],
    )
  ).rows.map((x) => x.id);
  const lines = rows.flatMap((x, i) => x.p.lines.map((l) => ({ request: requestIds[i], ...l, at: x.p.createdAt })));
  await client.query(
    `insert into foc_request_line (organization_id, foc_request_id, product_variant_id, quantity, unit_cost, amount, created_at, updated_at)
     select $1, rq, v, q, u / 100.0, q * u / 100.0, at, at
       from unnest($2::int[], $3::int[], $4::int[], $5::bigint[], $6::timestamptz[]) with ordinality as x(rq, v, q, u, at, n)
      order by n`,
    [org, lines.map((l) => l.request), lines.map((l) => l.variant), lines.map((l) => l.quantity), lines.map((l) => l.unitPaise), lines.map((l) => l.at)],
  );
  const approvalIds = (
    await client.query<{ id: number }>(
      `insert into approval (organization_id, kind, entity_id, amount, requested_by_user_id, status, current_tier, decided_at, created_at, updated_at)
       select $1, $2, e, a, rq, st, ct, da, cr, coalesce(da, cr)
         from unnest($3::int[], $4::numeric[], $5::int[], $6::smallint[], $7::smallint[], $8::timestamptz[], $9::timestamptz[]) with ordinality as x(e, a, rq, st, ct, da, cr, n)
        order by n returning id`,
      [
        org, FOC_KIND, requestIds, rows.map((x) => x.totalPaise / 100), rows.map((x) => x.p.requester), rows.map((x) => x.approvalStatus),
        rows.map((x) => x.currentTier), rows.map((x) => x.decidedAt), rows.map((x) => x.p.createdAt),
      ],
    )
  ).rows.map((x) => x.id);
  await client.query(
    `update foc_request f set approval_id = x.a from unnest($2::int[], $3::int[]) as x(f, a) where f.organization_id = $1 and f.id = x.f`,
    [org, requestIds, approvalIds],
  );
  const steps = rows.flatMap((x, i) => x.steps.map((s) => ({ approval: approvalIds[i], ...s, at: x.p.createdAt })));
  if (steps.length > 0) {
    await client.query(
      `insert into approval_step (organization_id, approval_id, tier, approver_user_id, approver_role_id, status, acted_by_user_id, comment, acted_at, created_at, updated_at)
       select $1, a, t, u, ro, st, ab, cm, aa, cr, coalesce(aa, cr)
         from unnest($2::int[], $3::smallint[], $4::int[], $5::int[], $6::smallint[], $7::int[], $8::text[], $9::timestamptz[], $10::timestamptz[])
              with ordinality as x(a, t, u, ro, st, ab, cm, aa, cr, n)
        order by n`,
      [
        org, steps.map((s) => s.approval), steps.map((s) => s.tier), steps.map((s) => s.userId), steps.map((s) => s.roleId), steps.map((s) => s.status),
        steps.map((s) => s.actedBy), steps.map((s) => s.comment), steps.map((s) => s.actedAt), steps.map((s) => s.at),
      ],
    );
  }
  counts.foc_request = (counts.foc_request ?? 0) + requestIds.length;
  counts.foc_request_line = (counts.foc_request_line ?? 0) + lines.length;
  counts.approval = (counts.approval ?? 0) + approvalIds.length;
  counts.approval_step = (counts.approval_step ?? 0) + steps.length;
}
