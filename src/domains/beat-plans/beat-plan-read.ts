import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import type { BeatPlan } from './beat-plan.entity';
import type { PlannedOutlet } from './day-view';

/** A template as REST and GraphQL show it: its row, its employee's and route's names, its outlets in order. */
export interface BeatPlanTemplateRead {
  plan: Row<BeatPlan>;
  userName: string;
  routeName: string;
  outlets: PlannedOutlet[];
}

/** The reads of template rows: names and outlets in two tenant-scoped statements. */
export async function readTemplates(em: EntityManager, organizationId: number, rows: ReadonlyArray<Row<BeatPlan>>): Promise<BeatPlanTemplateRead[]> {
  if (rows.length === 0) return [];
  const ids = `{${rows.map((r) => r.id).join(',')}}`;
  const t = tenantSql(organizationId, 'p');
  const names = await executeSql<{ id: number; userName: string; routeName: string }>(
    em,
    sql`select p.id, u.first_name || ' ' || u.last_name as "userName", r.name as "routeName"
        from beat_plan p ${t.join('app_user', 'u', 'u.id = p.user_id')} ${t.join('route', 'r', 'r.id = p.route_id')}
        where ${t.owns()} and p.id = any(${ids}::int[])`,
  );
  const outlets = await executeSql<{ planId: number } & PlannedOutlet>(
    em,
    sql`select p.beat_plan_id as "planId", p.outlet_id as "outletId", o.name as "outletName", p.sequence
        from beat_plan_outlet p ${t.join('outlet', 'o', 'o.id = p.outlet_id')}
        where ${t.owns()} and p.beat_plan_id = any(${ids}::int[]) order by p.sequence`,
  );
  const byId = new Map(names.map((n) => [n.id, n]));
  return rows.map((plan) => {
    const n = byId.get(plan.id);
    if (!n) throw new Error(`Beat plan template ${plan.id}: employee or route not found`);
    return {
      plan,
      userName: n.userName,
      routeName: n.routeName,
      outlets: outlets.filter((o) => o.planId === plan.id).map((o) => ({ outletId: o.outletId, outletName: o.outletName, sequence: o.sequence })),
    };
  });
}
