import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import type { VisitOutcome, VisitStatus } from './visit.entity';

/** One visit as later domains (beat plans, reports) count it. */
export interface VisitFact {
  visitId: number;
  userId: number;
  outletId: number;
  /** The workspace's local day of the check-in, YYYY-MM-DD. */
  visitDate: string;
  status: VisitStatus;
  outcome: VisitOutcome | null;
  orderId: number | null;
  /** null until checked out (and for abandoned visits). */
  geoVerified: boolean | null;
  checkInAt: Date;
  checkOutAt: Date | null;
  noSaleReasonId: number | null;
}

/**
 * The visits of a workspace whose local day lies in [from, to] (YYYY-MM-DD, inclusive), of the
 * given users (null: everyone's), ordered by user and check-in. One statement rooted at the
 * workspace (the (organization_id, visit_date) index serves it).
 */
export async function visitFacts(em: EntityManager, organizationId: number, userIds: readonly number[] | null, from: string, to: string): Promise<VisitFact[]> {
  if (userIds !== null && userIds.length === 0) return [];
  const t = tenantSql(organizationId, 'v');
  const users: Sql = userIds === null ? sql`true` : sql`v.user_id = any(${`{${userIds.map((id) => Math.trunc(id)).join(',')}}`}::int[])`;
  const rows = await executeSql<VisitFactRow>(
    em,
    sql`select v.id, v.user_id, v.outlet_id, to_char(v.visit_date, 'YYYY-MM-DD') as visit_date, v.status, v.outcome, v.order_id,
        v.geo_verified, v.check_in_at, v.check_out_at, v.no_sale_reason_id
      from visit v
      where ${t.owns()} and v.visit_date between ${from}::date and ${to}::date and ${users}
      order by v.user_id, v.check_in_at, v.id`,
  );
  return rows.map((r) => ({
    visitId: r.id,
    userId: r.user_id,
    outletId: r.outlet_id,
    visitDate: r.visit_date,
    status: r.status,
    outcome: r.outcome,
    orderId: r.order_id,
    geoVerified: r.geo_verified,
    checkInAt: new Date(r.check_in_at),
    checkOutAt: r.check_out_at === null ? null : new Date(r.check_out_at),
    noSaleReasonId: r.no_sale_reason_id,
  }));
}

interface VisitFactRow {
  id: number;
  user_id: number;
  outlet_id: number;
  visit_date: string;
  status: VisitStatus;
  outcome: VisitOutcome | null;
  order_id: number | null;
  geo_verified: boolean | null;
  check_in_at: Date | string;
  check_out_at: Date | string | null;
  no_sale_reason_id: number | null;
}
