import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/domains/auth/passwords';
import { evaluate, type SchemeRule } from '../../src/domains/schemes/scheme-engine';
import { runSeed } from '../../src/seed/main';
import { SEEDED_TABLES, SEED_PASSWORD, seedWorkspaces, seededWorkspaces, type SeedSummary } from '../../src/seed/seed';
import { SeedUsageError } from '../../src/seed/args';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createApiKey, signIn, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { brokenReferences } from '../helpers/tenant-keys';

/** npm run seed (operations.md): synthetic workspaces in bulk SQL, deterministic for a seed. */

const SEED = 11;
const ORGS = 2;
const ORDERS = 300;
const TODAY = new Date().toISOString().slice(0, 10);

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Rows per seeded table, over every workspace of the database. */
async function tableCounts(url: string): Promise<Record<string, number>> {
  const [row] = await query<Record<string, string>>(url, `select ${SEEDED_TABLES.map((t) => `(select count(*) from ${t}) as ${t}`).join(', ')}`);
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

/**
 * md5 of every seeded row by natural keys (slug, order code, SKU, phone …), never by serial ids,
 * which depend on what the database held before and on how many workspaces were written at once.
 */
async function digest(url: string): Promise<Record<string, string>> {
  const [row] = await query<Record<string, string>>(
    url,
    `select
      (select md5(string_agg(concat_ws('|', o.slug, o.workspace_id, o.display_name, o.plan, o.status, o.max_users, o.created_at, o.trial_ends_at,
                  c.org_address, c.gstin, c.fssai, c.time_zone), ',' order by o.slug))
         from organization o join workspace_config c on c.organization_id = o.id) as workspaces,
      (select md5(string_agg(concat_ws('|', o.slug, u.primary_contact_number, u.first_name, u.last_name, u.official_email, u.password_hash,
                  r.name, u.user_type, u.status, u.store_name, t.name, rt.name, u.created_at), ',' order by u.primary_contact_number))
         from app_user u join organization o on o.id = u.organization_id join role r on r.id = u.role_id
         left join town t on t.id = u.town_id left join route rt on rt.id = u.route_id) as users,
      (select md5(string_agg(concat_ws('|', o.slug, v.item_sku_code, v.variant_name, v.mrp, v.sp, v.unit_quantity, v.container_quantity,
                  p.name, p.hsn, pc.name, pc.unit), ',' order by o.slug, v.item_sku_code))
         from product_variant v join organization o on o.id = v.organization_id join product p on p.id = v.product_id
         join product_class pc on pc.id = p.product_class_id) as catalog,
      (select md5(string_agg(concat_ws('|', o.slug, so.order_code, so.status, so.order_date, so.created_at, so.updated_at, so.total_amount,
                  so.items_count, so.delivery_date, so.mode_of_payment, so.delivery_otp_hash, cu.primary_contact_number, t.name, rt.name,
                  pu.name, cb.primary_contact_number), ',' order by o.slug, so.order_code))
         from sales_order so join organization o on o.id = so.organization_id join app_user cu on cu.id = so.customer_id
         left join town t on t.id = so.town_id left join route rt on rt.id = so.route_id
         left join production_unit pu on pu.id = so.production_unit_id left join app_user cb on cb.id = so.created_by_user_id) as orders,
      (select md5(string_agg(concat_ws('|', o.slug, so.order_code, v.item_sku_code, i.quantity, i.unit_price, i.amount, i.discount_amount, sc.code, i.created_at),
                  ',' order by o.slug, so.order_code, v.item_sku_code, sc.code nulls first))
         from order_item i join sales_order so on so.id = i.order_id join organization o on o.id = i.organization_id
         join product_variant v on v.id = i.product_variant_id left join scheme sc on sc.id = i.scheme_id) as items,
      (select md5(string_agg(concat_ws('|', o.slug, s.code, s.name, s.kind, s.target_kind, s.scope, s.valid_from, s.valid_to, s.priority, s.stackable,
                  s.budget_kind, s.budget, s.status, s.created_at), ',' order by o.slug, s.code))
         from scheme s join organization o on o.id = s.organization_id) as schemes,
      (select md5(string_agg(concat_ws('|', o.slug, so.order_code, s.code, u.amount, u.units, u.reversal), ',' order by o.slug, so.order_code, s.code))
         from scheme_use u join organization o on o.id = u.organization_id join scheme s on s.id = u.scheme_id join sales_order so on so.id = u.order_id) as scheme_uses,
      (select md5(string_agg(concat_ws('|', o.slug, so.order_code, h.from_status, h.to_status, h.changed_at, u.primary_contact_number),
                  ',' order by o.slug, so.order_code, h.to_status))
         from order_status_history h join sales_order so on so.id = h.order_id join organization o on o.id = h.organization_id
         left join app_user u on u.id = h.changed_by_user_id) as history,
      (select md5(string_agg(concat_ws('|', o.slug, so.order_code, p.amount, p.mode_of_payment, p.paid_at, p.reference, u.primary_contact_number),
                  ',' order by o.slug, so.order_code, p.paid_at))
         from payment p join sales_order so on so.id = p.order_id join organization o on o.id = p.organization_id
         left join app_user u on u.id = p.recorded_by_user_id) as payments,
      (select md5(string_agg(concat_ws('|', o.slug, t.name, r.name, ou.name, ou.phone, ou.latitude, ou.longitude, ou.tagged_at),
                  ',' order by o.slug, t.name, r.name, ou.name))
         from outlet ou join organization o on o.id = ou.organization_id join town t on t.id = ou.town_id join route r on r.id = ou.route_id) as outlets,
      (select md5(string_agg(concat_ws('|', o.slug, x.name, x.status, x.created_at), ',' order by o.slug, x.name))
         from no_sale_reason x join organization o on o.id = x.organization_id) as no_sale_reasons,
      (select md5(string_agg(concat_ws('|', o.slug, u.primary_contact_number, bp.weekday, bp.frequency, r.name, bp.effective_from, bp.status, bp.revised_on,
                  bo.sequence, ou.name, ou.phone), ',' order by o.slug, u.primary_contact_number, bp.weekday, bo.sequence))
         from beat_plan bp join organization o on o.id = bp.organization_id join app_user u on u.id = bp.user_id join route r on r.id = bp.route_id
         join beat_plan_outlet bo on bo.beat_plan_id = bp.id join outlet ou on ou.id = bo.outlet_id) as beat_plans,
      (select md5(string_agg(concat_ws('|', o.slug, v.client_ref, u.primary_contact_number, ou.name, ou.phone, v.status, v.visit_date, v.check_in_at,
                  v.check_in_device_time, v.check_in_latitude, v.check_in_longitude, v.check_in_accuracy_m, v.check_out_at, v.check_out_latitude,
                  v.check_out_longitude, v.distance_from_outlet_m, v.dwell_seconds, v.geo_verified, v.radius_m, v.min_dwell_minutes, v.outcome,
                  so.order_code, nr.name, v.remarks), ',' order by o.slug, v.client_ref))
         from visit v join organization o on o.id = v.organization_id join app_user u on u.id = v.user_id join outlet ou on ou.id = v.outlet_id
         left join sales_order so on so.id = v.order_id left join no_sale_reason nr on nr.id = v.no_sale_reason_id) as visits,
      (select md5(string_agg(concat_ws('|', o.slug, u.primary_contact_number, p.recorded_at, p.received_at, p.latitude, p.longitude, p.accuracy_m,
                  p.speed_mps, p.heading, p.battery_pct), ',' order by o.slug, u.primary_contact_number, p.recorded_at))
         from user_position p join organization o on o.id = p.organization_id join app_user u on u.id = p.user_id) as positions,
      (select md5(string_agg(concat_ws('|', o.slug, u.primary_contact_number, l.leave_type, l.from_date, l.to_date, l.half_day, l.days, l.reason,
                  l.status, d.primary_contact_number, l.decided_at, l.decision_note, l.created_at), ',' order by o.slug, u.primary_contact_number, l.from_date))
         from leave_application l join organization o on o.id = l.organization_id join app_user u on u.id = l.user_id
         left join app_user d on d.id = l.decided_by_user_id) as leaves,
      (select md5(string_agg(concat_ws('|', o.slug, u.primary_contact_number, t.period_type, t.period_start, t.period_end, t.product_class_id,
                  t.target_amount, t.target_quantity, t.target_productive_calls, t.target_outlets), ',' order by o.slug, u.primary_contact_number, t.period_start))
         from sales_target t join organization o on o.id = t.organization_id join app_user u on u.id = t.user_id) as targets,
      (select md5(string_agg(concat_ws('|', o.slug, ct.name, ct.deposit_value, u.primary_contact_number, m.kind, m.quantity, so.order_code, m.occurred_at,
                  r.primary_contact_number), ',' order by o.slug, ct.name, u.primary_contact_number, m.occurred_at, m.kind))
         from crate_movement m join organization o on o.id = m.organization_id join crate_type ct on ct.id = m.crate_type_id
         join app_user u on u.id = m.customer_id left join sales_order so on so.id = m.order_id left join app_user r on r.id = m.recorded_by_user_id) as crates`,
  );
  return row;
}

describe('npm run seed', () => {
  let db: TestDatabase;
  let first: SeedSummary;
  const progress: Array<[number, number]> = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    first = await seedWorkspaces(db.url, { orgs: ORGS, ordersPerOrg: ORDERS, seed: SEED, onProgress: (d, t) => progress.push([d, t]) });
  }, 120_000);
  afterAll(async () => {
    await db.drop();
  });

  describe('a small seed (2 workspaces × 300 orders)', () => {
    it('reports what it wrote, per table, and the counts are in the database', async () => {
      expect(first).toMatchObject({ seed: SEED, orgs: ORGS, ordersPerOrg: ORDERS, asOf: TODAY, alreadySeeded: false, created: 2, existing: 0, password: SEED_PASSWORD });
      expect(progress).toEqual([[0, 2], [1, 2], [2, 2]]);
      expect(await tableCounts(db.url)).toEqual(first.rows);
      expect(first.totalRows).toBe(Object.values(first.rows).reduce((a, b) => a + b, 0));
      expect(first.rows).toMatchObject({ organization: 2, workspace_config: 2, role: 16, sales_order: 600, tenant_counter: 6 });
      for (const table of SEEDED_TABLES) expect(first.rows[table], table).toBeGreaterThan(0);
      // 1-8 lines, 4.5 on average.
      expect(first.rows.order_item).toBeGreaterThan(600 * 3.5);
      expect(first.rows.order_item).toBeLessThan(600 * 5.5);
      expect(first.seconds).toBeGreaterThan(0);
      expect(first.workspaces.map((w) => w.slug)).toEqual(['seed11-0001', 'seed11-0002']);
    });

    it('makes each workspace as signup does (settings, the four roles, a first admin), active, with room for more users', async () => {
      const rows = await query<{ slug: string; status: number; plan: string; max_users: number; active: string; time_zone: string; footer: string; display_name: string; roles: string[] }>(
        db.url,
        `select o.slug, o.status, o.plan, o.max_users, c.time_zone, c.org_footer_name as footer, o.display_name,
                (select count(*) from app_user u where u.organization_id = o.id and u.status = 1) as active,
                (select array_agg(name order by name) from role r where r.organization_id = o.id) as roles
           from organization o join workspace_config c on c.organization_id = o.id order by o.slug`,
      );
      for (const row of rows) {
        expect(row.status).toBe(1);
        expect(['starter', 'pro', 'professional']).toContain(row.plan);
        expect(row.max_users).toBeGreaterThan(Number(row.active));
        expect(row.footer).toBe(row.display_name);
        expect(row.time_zone).toBe('Asia/Kolkata');
        expect(row.roles).toEqual(expect.arrayContaining(['Admin', 'Employee', 'Distributor', 'Retailer', 'Sales Executive', 'Delivery Executive', 'Accountant', 'Area Manager']));
      }
      const w = first.workspaces[0];
      const [admin] = await query<{ user_type: number; role: string; official_email: string; password_hash: string }>(
        db.url,
        'select u.user_type, r.name as role, u.official_email, u.password_hash from app_user u join role r on r.id = u.role_id where u.id = $1',
        [w.adminUserId],
      );
      expect(admin).toMatchObject({ user_type: 0, role: 'Admin', official_email: w.adminEmail });
      expect(await verifyPassword(admin.password_hash, SEED_PASSWORD)).toBe(true);
    });

    it('has users of every type and every employee role in each workspace, a few inactive', async () => {
      const rows = await query<{ organization_id: number; user_type: number; role: string; active: string; inactive: string }>(
        db.url,
        `select u.organization_id, u.user_type, r.name as role, count(*) filter (where u.status = 1) as active, count(*) filter (where u.status = 0) as inactive
           from app_user u join role r on r.id = u.role_id group by 1, 2, 3`,
      );
      for (const w of first.workspaces) {
        const mine = rows.filter((r) => r.organization_id === w.id);
        expect(new Set(mine.map((r) => r.user_type))).toEqual(new Set([0, 1, 2, 3]));
        expect(mine.filter((r) => r.user_type === 1).map((r) => r.role).sort()).toEqual(['Accountant', 'Area Manager', 'Delivery Executive', 'Employee', 'Sales Executive']);
        expect(mine.filter((r) => r.user_type === 0).map((r) => r.role)).toEqual(['Admin']);
        expect(mine.filter((r) => r.user_type === 2).map((r) => r.role)).toEqual(['Distributor']);
        expect(mine.filter((r) => r.user_type === 3).map((r) => r.role)).toEqual(['Retailer']);
        expect(mine.reduce((n, r) => n + Number(r.inactive), 0)).toBeGreaterThan(0);
      }
      const [bad] = await query<{ n: string }>(
        db.url,
        `select count(*) as n from app_user where (user_type >= 2) <> (store_name is not null) or (user_type <= 1 and official_email is null)
            or primary_contact_number !~ '^\\+[0-9]{10,15}$'`,
      );
      expect(Number(bad.n)).toBe(0);
    });

    it('prices every line at its variant selling price (0 on a FOC order) less its scheme discount; the total is the sum of its 1-8 paid lines, of different variants, and free lines', async () => {
      const [check] = await query<Record<string, string>>(
        db.url,
        `with lines as (
           select i.order_id, count(*) as n, count(*) filter (where i.scheme_id is null) as paid,
                  count(distinct i.product_variant_id) filter (where i.scheme_id is null) as variants, sum(i.amount) as total,
                  count(*) filter (where i.scheme_id is null and (i.unit_price <> case when f.id is null then v.sp else 0 end or i.amount <> i.quantity * i.unit_price - i.discount_amount
                                   or i.discount_amount < 0 or i.amount < 0 or i.quantity < 1)) as mispriced,
                  count(*) filter (where i.scheme_id is not null and (i.unit_price <> 0 or i.amount <> 0 or i.discount_amount <> 0 or i.quantity < 1)) as bad_free
             from order_item i join product_variant v on v.id = i.product_variant_id
             left join foc_request f on f.organization_id = i.organization_id and f.fulfilled_order_id = i.order_id
            group by i.order_id)
         select count(*) as orders,
                count(*) filter (where l.total is distinct from o.total_amount) as wrong_total,
                count(*) filter (where l.n is distinct from o.items_count) as wrong_count,
                count(*) filter (where l.paid < 1 or l.paid > 8 or l.variants <> l.paid) as wrong_lines,
                coalesce(sum(l.mispriced), 0) as mispriced, coalesce(sum(l.bad_free), 0) as bad_free,
                min(l.paid) as min_lines, max(l.paid) as max_lines
           from sales_order o left join lines l on l.order_id = o.id`,
      );
      expect(check).toMatchObject({ orders: '600', wrong_total: '0', wrong_count: '0', wrong_lines: '0', mispriced: '0', bad_free: '0', min_lines: '1', max_lines: '8' });
      const [catalog] = await query<{ bad: string; units: string }>(
        db.url,
        `select count(*) filter (where sp > mrp or sp <= 0 or unit_quantity <= 0) as bad, count(distinct unit_quantity) as units from product_variant`,
      );
      expect(catalog.bad).toBe('0');
      expect(Number(catalog.units)).toBeGreaterThan(3);
    });

    it('gives every workspace schemes (every target, scope and state, budgets) and every order what the engine gives its cart on its day, in creation order', async () => {
      const schemes = await query<Record<string, any>>(
        db.url,
        `select s.*, to_char(s.valid_from, 'YYYY-MM-DD') as vf, to_char(s.valid_to, 'YYYY-MM-DD') as vt from scheme s order by s.organization_id, s.id`,
      );
      expect(schemes).toHaveLength(6 * ORGS);
      expect(new Set(schemes.map((s) => s.target_kind))).toEqual(new Set([1, 2, 3]));
      expect(new Set(schemes.map((s) => s.scope))).toEqual(new Set([1, 2, 3, 4]));
      expect(new Set(schemes.map((s) => s.kind))).toEqual(new Set([1, 2]));
      expect(schemes.filter((s) => s.status === 2)).toHaveLength(ORGS);
      expect(schemes.filter((s) => s.vf > TODAY)).toHaveLength(ORGS);
      expect(schemes.filter((s) => s.vt !== null && s.vt < TODAY)).toHaveLength(2 * ORGS);
      expect(schemes.filter((s) => s.budget_kind !== null)).toHaveLength(2 * ORGS);
      const variants = await query<{ id: number; sp: string; product_id: number; class_id: number }>(
        db.url,
        'select v.id, v.sp, v.product_id, p.product_class_id as class_id from product_variant v join product p on p.id = v.product_id',
      );
      const variantOf = new Map(variants.map((v) => [v.id, v]));
      const freeVariants = new Map(variants.map((v) => [v.id, { active: true, unitPaise: Math.round(Number(v.sp) * 100) }]));
      const orders = await query<{ id: number; organization_id: number; day: string; total: string; customer_id: number; user_type: number; town_id: number | null; route_id: number | null; foc: boolean }>(
        db.url,
        `select o.id, o.organization_id, to_char(o.order_date, 'YYYY-MM-DD') as day, o.total_amount as total, o.customer_id, u.user_type, u.town_id, u.route_id,
                exists (select 1 from foc_request f where f.organization_id = o.organization_id and f.fulfilled_order_id = o.id) as foc
           from sales_order o join app_user u on u.id = o.customer_id
          order by o.organization_id, split_part(o.order_code, '-', 3)::int`,
      );
      const items = await query<{ order_id: number; product_variant_id: number; quantity: number; unit_price: string; amount: string; discount_amount: string; scheme_id: number | null }>(
        db.url,
        'select order_id, product_variant_id, quantity, unit_price, amount, discount_amount, scheme_id from order_item order by order_id, id',
      );
      const uses = await query<{ order_id: number; scheme_id: number; amount: string; units: number; reversal: boolean }>(db.url, 'select * from scheme_use order by order_id, scheme_id');
      const byOrder = <T extends { order_id: number }>(rows: T[]) => {
        const m = new Map<number, T[]>();
        for (const r of rows) m.set(r.order_id, [...(m.get(r.order_id) ?? []), r]);
        return m;
      };
      const itemsOf = byOrder(items);
      const usesOf = byOrder(uses);
      expect(uses.filter((u) => u.reversal)).toEqual([]);
      const used = new Map<number, number>();
      const applied = new Map<number, number>();
      const paise = (v: string | number) => Math.round(Number(v) * 100);
      for (const o of orders) {
        if (o.foc) {
          // A FOC order takes no scheme: every line at 0, no free line, no budget used.
          expect(itemsOf.get(o.id)!.every((l) => l.scheme_id === null && paise(l.amount) === 0 && paise(l.unit_price) === 0 && paise(l.discount_amount) === 0)).toBe(true);
          expect(usesOf.get(o.id) ?? []).toEqual([]);
          continue;
        }
        const rules: SchemeRule[] = schemes
          .filter((s) => s.organization_id === o.organization_id)
          .map((s) => ({
            id: s.id, code: s.code, name: s.name, kind: s.kind, targetKind: s.target_kind, targetId: s.target_id, scope: s.scope, scopeIds: s.scope_ids,
            validFrom: s.vf, validTo: s.vt, priority: s.priority, stackable: s.stackable, status: s.status, budgetKind: s.budget_kind,
            budget: s.budget === null ? null : s.budget_kind === 2 ? Number(s.budget) : paise(s.budget),
            used: used.get(s.id) ?? 0, slabs: s.slabs,
          }));
        const lines = itemsOf.get(o.id)!;
        const paid = lines.filter((l) => l.scheme_id === null);
        const evaluation = evaluate({
          buyer: { id: o.customer_id, userType: o.user_type, townId: o.town_id, routeId: o.route_id },
          day: o.day,
          lines: paid.map((l) => {
            const v = variantOf.get(l.product_variant_id)!;
            return { variantId: v.id, productId: v.product_id, productClassId: v.class_id, quantity: l.quantity, unitPaise: paise(l.unit_price) };
          }),
          rules,
          freeVariants,
        });
        expect(paid.map((l) => [paise(l.discount_amount), paise(l.amount)]), `order ${o.id}`).toEqual(evaluation.lines.map((l) => [l.discountPaise, l.amountPaise]));
        expect(lines.filter((l) => l.scheme_id !== null).map((l) => [l.product_variant_id, l.quantity, l.scheme_id]), `order ${o.id}`).toEqual(
          evaluation.free.map((f) => [f.variantId, f.quantity, f.schemeId]),
        );
        expect(paise(o.total)).toBe(evaluation.totalPaise);
        const outcomes = evaluation.schemes.filter((s) => s.applied).sort((a, b) => a.schemeId - b.schemeId);
        expect((usesOf.get(o.id) ?? []).map((u) => [u.scheme_id, paise(u.amount), u.units]), `order ${o.id}`).toEqual(outcomes.map((s) => [s.schemeId, s.amountPaise, s.freeUnits]));
        for (const s of outcomes) {
          const rule = rules.find((r) => r.id === s.schemeId)!;
          used.set(s.schemeId, (used.get(s.schemeId) ?? 0) + (rule.budgetKind === 2 ? s.freeUnits : s.amountPaise));
          applied.set(s.schemeId, (applied.get(s.schemeId) ?? 0) + 1);
        }
      }
      // Every scheme that could apply to the two years of orders did, somewhere; the class discount's budget ran out.
      for (const s of schemes.filter((x) => x.status === 1 && x.vf <= TODAY && !x.code.startsWith('RTE'))) expect(applied.get(s.id) ?? 0, s.code).toBeGreaterThan(0);
      for (const s of schemes.filter((x) => x.code.startsWith('CLS'))) expect(used.get(s.id), s.code).toBe(paise(s.budget));
    });

    it('gives every workspace FOC requests in every state, approvals by its policy, and the fulfilled ones zero-priced orders of their very lines', async () => {
      const [policy] = await query<Record<string, string>>(
        db.url,
        `select count(distinct p.organization_id) as workspaces,
                count(*) filter (where t.tier = 1 and t.min_amount = 2000) as tier1, count(*) filter (where t.tier = 2 and t.min_amount = 20000 and t.approver_user_id is not null) as tier2
           from approval_policy p join approval_policy_tier t on t.approval_policy_id = p.id where p.kind = 'foc'`,
      );
      expect(policy).toEqual({ workspaces: String(ORGS), tier1: String(ORGS), tier2: String(ORGS) });
      const states = await query<{ organization_id: number; status: number; n: string }>(db.url, 'select organization_id, status, count(*) as n from foc_request group by 1, 2 order by 1, 2');
      for (const w of first.workspaces) expect(states.filter((x) => x.organization_id === w.id).map((x) => x.status), w.slug).toEqual([1, 2, 3, 4, 5]);
      const [check] = await query<Record<string, string>>(
        db.url,
        `with req as (
           select f.*, a.status as a_status, a.current_tier, a.decided_at, a.amount, a.entity_id, a.kind, a.requested_by_user_id as a_by,
                  (select count(*) from approval_policy_tier t join approval_policy p on p.id = t.approval_policy_id
                    where p.organization_id = f.organization_id and p.kind = 'foc' and f.total_cost >= t.min_amount) as tiers,
                  (select count(*) from approval_step s where s.approval_id = a.id) as steps,
                  (select string_agg(s.status::text, '' order by s.tier) from approval_step s where s.approval_id = a.id) as step_states,
                  (select sum(l.amount) from foc_request_line l where l.foc_request_id = f.id) as lines_total,
                  (select count(*) from approval_step s where s.approval_id = a.id and (s.acted_by_user_id = f.requested_by_user_id
                     or (s.status in (3, 4)) <> (s.acted_by_user_id is not null) or s.acted_at < f.created_at or s.acted_at >= $1::date)) as steps_off
             from foc_request f join approval a on a.id = f.approval_id and a.organization_id = f.organization_id)
         select count(*) as requests,
                count(*) filter (where kind <> 'foc' or entity_id <> id or amount <> total_cost or a_by is distinct from requested_by_user_id or lines_total <> total_cost) as approval_off,
                count(*) filter (where steps <> tiers) as tiers_off,
                count(*) filter (where not (
                  (status = 1 and a_status = 1 and current_tier between 1 and tiers and decided_at is null and step_states ~ '^3*21*$') or
                  (status in (2, 4) and a_status = 2 and current_tier is null and coalesce(step_states, '') ~ '^3*$') or
                  (status = 3 and a_status = 3 and step_states ~ '^3*45*$') or
                  (status = 5 and a_status in (2, 4) and cancelled_at is not null and (a_status = 2 or step_states ~ '^3*5+$')))) as states_off,
                count(*) filter (where (status = 4) <> (fulfilled_order_id is not null) or (status = 4) <> (fulfilled_at is not null) or fulfilled_at < decided_at) as fulfilment_off,
                count(*) filter (where created_at >= $1::date or coalesce(decided_at, created_at) >= $1::date) as late
           from req`,
        [TODAY],
      );
      expect(check).toMatchObject({ approval_off: '0', tiers_off: '0', states_off: '0', fulfilment_off: '0', late: '0' });
      // The fulfilled ones' orders: placed when fulfilled, by an administrator, for the customer, the request's lines at 0, no payment, no ledger debit.
      const [orders] = await query<Record<string, string>>(
        db.url,
        `select count(*) as fulfilled,
                count(*) filter (where o.customer_id <> f.customer_id or o.created_at <> f.fulfilled_at or o.total_amount <> 0 or u.user_type <> 0
                  or (select string_agg(i.product_variant_id || 'x' || i.quantity, ',' order by i.product_variant_id) from order_item i where i.order_id = o.id)
                     is distinct from (select string_agg(l.product_variant_id || 'x' || l.quantity, ',' order by l.product_variant_id) from foc_request_line l where l.foc_request_id = f.id)
                  or exists (select 1 from payment p where p.order_id = o.id) or exists (select 1 from ledger_entry e where e.order_id = o.id)) as off
           from foc_request f join sales_order o on o.id = f.fulfilled_order_id and o.organization_id = f.organization_id
           left join app_user u on u.id = o.created_by_user_id`,
      );
      expect(Number(orders.fulfilled)).toBeGreaterThan(0);
      expect(orders.off).toBe('0');
    });

    it('dates orders over the two years before today, each created on its own local day, numbered in creation order', async () => {
      const [range] = await query<Record<string, string | boolean>>(
        db.url,
        `select to_char(min(order_date), 'YYYY-MM-DD') as first, to_char(max(order_date), 'YYYY-MM-DD') as last,
                bool_and((created_at at time zone 'Asia/Kolkata')::date = order_date) as local_day,
                bool_and(delivery_date is null or delivery_date > order_date) as delivery_after,
                bool_and(created_at < now() and updated_at >= created_at and updated_at < now()) as past,
                bool_and(order_code = 'ORD-' || to_char(order_date, 'YYYY') || '-' || lpad(seq::text, 6, '0')) as codes
           from (select o.*, row_number() over (partition by organization_id order by created_at, id) as seq from sales_order o) o`,
      );
      expect(range.first >= shift(TODAY, -730)).toBe(true);
      expect(range.last < TODAY).toBe(true);
      expect(range).toMatchObject({ local_day: true, delivery_after: true, past: true, codes: true });
      // Newer months have more orders than the oldest (a growing business).
      const [trend] = await query<{ early: string; late: string }>(
        db.url,
        `select count(*) filter (where order_date < $1::date - 550) as early, count(*) filter (where order_date >= $1::date - 180) as late from sales_order`,
        [TODAY],
      );
      expect(Number(trend.late)).toBeGreaterThan(Number(trend.early));
    });

    it('keeps one history row per status step, in order, ending at the order status', async () => {
      const [check] = await query<Record<string, string>>(
        db.url,
        `with h as (
           select order_id, count(*) as n, max(to_status) as last_to, max(changed_at) as last_at,
                  bool_and(to_status = rn and from_status is not distinct from nullif(to_status - 1, 0)) as chained,
                  bool_and(changed_at > coalesce(prev_at, '-infinity')) as increasing
             from (select *, row_number() over w as rn, lag(changed_at) over w as prev_at
                     from order_status_history window w as (partition by order_id order by to_status)) x
            group by order_id)
         select count(*) filter (where h.n is distinct from o.status or h.last_to <> o.status) as wrong_steps,
                count(*) filter (where not h.chained or not h.increasing) as broken,
                count(*) filter (where h.last_at <> o.updated_at or h.last_at >= now()) as wrong_time,
                count(distinct o.status) as statuses
           from sales_order o left join h on h.order_id = o.id`,
      );
      expect(check).toMatchObject({ wrong_steps: '0', broken: '0', wrong_time: '0', statuses: '4' });
      const [{ delivered }] = await query<{ delivered: string }>(db.url, 'select count(*) filter (where status = 4) * 1.0 / count(*) as delivered from sales_order');
      expect(Number(delivered)).toBeGreaterThan(0.8);
    });

    it('records payments only against delivered orders, after delivery, never above the total', async () => {
      const [check] = await query<Record<string, string>>(
        db.url,
        `with p as (select order_id, sum(amount) as paid, min(paid_at) as first_paid, max(paid_at) as last_paid, bool_and(amount > 0) as positive
                      from payment group by order_id)
         select count(*) as paid_orders,
                count(*) filter (where o.status <> 4) as undelivered,
                count(*) filter (where p.paid > o.total_amount or not p.positive) as overpaid,
                count(*) filter (where p.first_paid <= h.changed_at or p.last_paid >= now()) as wrong_time,
                count(*) filter (where p.paid < o.total_amount) as partly
           from p join sales_order o on o.id = p.order_id
           left join order_status_history h on h.order_id = o.id and h.to_status = 4`,
      );
      expect(Number(check.paid_orders)).toBeGreaterThan(100);
      expect(Number(check.partly)).toBeGreaterThan(0);
      expect(check).toMatchObject({ undelivered: '0', overpaid: '0', wrong_time: '0' });
      const [unpaid] = await query<{ n: string }>(db.url, 'select count(*) as n from sales_order o where status = 4 and not exists (select 1 from payment p where p.order_id = o.id)');
      expect(Number(unpaid.n)).toBeGreaterThan(0);
    });

    it('refers only to rows of the same workspace (the foreign-key triggers may be skipped, so every reference is checked here)', async () => {
      const [check] = await query<Record<string, string>>(
        db.url,
        `select
          (select count(*) from sales_order o left join app_user u on u.id = o.customer_id and u.organization_id = o.organization_id
            where u.id is null or u.user_type not in (2, 3) or o.town_id is distinct from u.town_id or o.route_id is distinct from u.route_id) as customers,
          (select count(*) from sales_order o left join app_user u on u.id = o.created_by_user_id and u.organization_id = o.organization_id
            where o.created_by_user_id is not null and u.id is null) as creators,
          (select count(*) from sales_order o left join production_unit p on p.id = o.production_unit_id and p.organization_id = o.organization_id
            where o.production_unit_id is not null and p.id is null) as units,
          (select count(*) from order_item i left join sales_order o on o.id = i.order_id and o.organization_id = i.organization_id
            left join product_variant v on v.id = i.product_variant_id and v.organization_id = i.organization_id where o.id is null or v.id is null) as items,
          (select count(*) from order_status_history h left join sales_order o on o.id = h.order_id and o.organization_id = h.organization_id
            left join app_user u on u.id = h.changed_by_user_id and u.organization_id = h.organization_id and u.user_type <= 1
            where o.id is null or (h.changed_by_user_id is not null and h.to_status > 1 and u.id is null)) as history,
          (select count(*) from payment p left join sales_order o on o.id = p.order_id and o.organization_id = p.organization_id
            left join app_user u on u.id = p.recorded_by_user_id and u.organization_id = p.organization_id and u.user_type <= 1
            where o.id is null or u.id is null) as payments,
          (select count(*) from app_user u left join role r on r.id = u.role_id and r.organization_id = u.organization_id
            left join route rt on rt.id = u.route_id and rt.organization_id = u.organization_id
            where r.id is null or (u.route_id is not null and (rt.id is null or rt.town_id <> u.town_id))) as users,
          (select count(*) from outlet x left join route r on r.id = x.route_id and r.organization_id = x.organization_id
            where r.id is null or r.town_id <> x.town_id) as outlets,
          (select count(*) from product_variant v join product p on p.id = v.product_id join product_class c on c.id = p.product_class_id
            where p.organization_id <> v.organization_id or c.organization_id <> v.organization_id) as catalog`,
      );
      expect(check).toEqual({ customers: '0', creators: '0', units: '0', items: '0', history: '0', payments: '0', users: '0', outlets: '0', catalog: '0' });
      // And every foreign key holds, the composite tenant keys included, as if the triggers had run.
      expect(await brokenReferences(db.url)).toEqual({});
    });

    it('gives every workspace its field force: no-sale reasons, tagged outlets, beat plans, visits, positions, leaves, monthly targets', async () => {
      const perWorkspace = await query<Record<string, string>>(
        db.url,
        `select o.slug,
                (select count(*) from no_sale_reason x where x.organization_id = o.id) as reasons,
                (select count(*) from outlet x where x.organization_id = o.id and (x.latitude is null or x.tagged_at is null)) as untagged,
                (select count(*) from beat_plan x where x.organization_id = o.id) as plans,
                (select count(*) from beat_plan_outlet x where x.organization_id = o.id) as plan_outlets,
                (select count(*) from visit x where x.organization_id = o.id) as visits,
                (select count(*) from visit x where x.organization_id = o.id and x.outcome = 2) as no_sales,
                (select count(*) from user_position x where x.organization_id = o.id) as positions,
                (select count(*) from leave_application x where x.organization_id = o.id) as leaves,
                (select count(*) from sales_target x where x.organization_id = o.id) as targets
           from organization o order by o.slug`,
      );
      expect(perWorkspace.map((w) => w.slug)).toEqual(['seed11-0001', 'seed11-0002']);
      for (const w of perWorkspace) {
        expect(w.untagged, w.slug).toBe('0');
        for (const k of ['reasons', 'plans', 'plan_outlets', 'visits', 'no_sales', 'positions', 'leaves', 'targets']) expect(Number(w[k]), `${w.slug} ${k}`).toBeGreaterThan(0);
      }
      // Every active employee has 1-3 templates on distinct weekdays, mostly weekly, and a target for each of four months.
      const [plans] = await query<Record<string, string>>(
        db.url,
        `select (select count(*) from app_user u where u.user_type = 1 and u.status = 1
                  and (select count(distinct weekday) from beat_plan b where b.user_id = u.id) not between 1 and 3) as employees_off,
                (select count(*) from beat_plan where weekday not between 1 and 7 or frequency not in (1, 2, 4) or revised_on >= effective_from
                   or revised_on <> (created_at at time zone 'Asia/Kolkata')::date or effective_to is not null or status <> 1) as bad_plans,
                (select count(*) filter (where frequency = 1) * 100 / count(*) from beat_plan) as weekly_pct,
                (select count(*) from beat_plan b join route r on r.id = b.route_id join beat_plan_outlet bo on bo.beat_plan_id = b.id
                   join outlet ou on ou.id = bo.outlet_id where ou.route_id <> b.route_id) as outlets_off_route,
                (select count(*) from app_user u where u.user_type = 1 and u.status = 1
                  and (select count(*) from sales_target t where t.user_id = u.id and t.period_type = 1) <> 4) as without_targets,
                (select count(*) from sales_target where period_end <> (period_start + interval '1 month' - interval '1 day')::date
                   or extract(day from period_start) <> 1 or target_amount <= 0) as bad_targets`,
      );
      expect(plans).toMatchObject({ employees_off: '0', bad_plans: '0', outlets_off_route: '0', without_targets: '0', bad_targets: '0' });
      expect(Number(plans.weekly_pct)).toBeGreaterThanOrEqual(60);
    });

    it('gives every workspace crates consistent with its orders: issued at deliveries, never more back than held', async () => {
      const [check] = await query<Record<string, string>>(
        db.url,
        `select (select count(distinct m.organization_id) from crate_movement m) as workspaces,
                (select count(*) from crate_type) as types,
                (select count(*) from crate_movement m where m.kind = 1) as issues,
                (select count(*) from sales_order o where o.status = 4 and o.cancelled_at is null) as delivered,
                (select count(*) from crate_movement m join sales_order o on o.id = m.order_id and o.organization_id = m.organization_id
                   join order_status_history h on h.order_id = o.id and h.to_status = 4
                  where m.kind <> 1 or o.customer_id <> m.customer_id or o.status <> 4 or m.occurred_at <> h.changed_at or m.quantity not between 1 and 6) as issues_off,
                (select count(*) from crate_movement m where (m.kind = 1) <> (m.order_id is not null) or (m.kind in (2, 3, 4)) <> (m.quantity < 0)
                   or m.kind not in (1, 2, 3, 4) or m.recorded_by_user_id is null) as kinds_off,
                (select count(*) from (select sum(m.quantity) over (partition by m.customer_id, m.crate_type_id order by m.occurred_at, m.kind desc, m.id) as running
                   from crate_movement m) x where x.running < 0) as overdrawn,
                (select count(*) from crate_movement m where m.kind in (3, 4)) as written_off,
                (select count(*) from (select 1 from crate_movement m group by m.customer_id, m.crate_type_id having sum(m.quantity) > 0) held) as holders`,
      );
      expect(check).toMatchObject({ workspaces: String(ORGS), types: String(2 * ORGS), issues: check.delivered, issues_off: '0', kinds_off: '0', overdrawn: '0' });
      expect(Number(check.written_off)).toBeGreaterThan(0);
      expect(Number(check.holders)).toBeGreaterThan(0);
    });

    it('keeps the visit rules: planned outlets, geo_verified from distance, dwell and radius, one open visit per user, outcomes that hold', async () => {
      const [v] = await query<Record<string, string>>(
        db.url,
        `with v as (
           select v.*, ou.latitude::float8 as olat, ou.longitude::float8 as olng, c.visit_radius_m, c.visit_min_dwell_minutes,
                  2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(ou.latitude::float8 - v.check_in_latitude) / 2), 2)
                    + cos(radians(v.check_in_latitude)) * cos(radians(ou.latitude::float8)) * power(sin(radians(ou.longitude::float8 - v.check_in_longitude) / 2), 2)))) as metres
             from visit v join outlet ou on ou.id = v.outlet_id join workspace_config c on c.organization_id = v.organization_id)
         select
           (select count(*) from v where abs(distance_from_outlet_m - metres) > 0.5) as distance_off,
           (select count(*) from v where status = 3 and (dwell_seconds is distinct from extract(epoch from check_out_device_time - check_in_device_time)::int
              or radius_m is distinct from visit_radius_m or min_dwell_minutes is distinct from visit_min_dwell_minutes
              or geo_verified is distinct from (distance_from_outlet_m <= radius_m and dwell_seconds >= min_dwell_minutes * 60))) as verification_off,
           (select count(*) from v where status <> 3 and (geo_verified is not null or outcome is not null or check_out_at is not null)) as open_off,
           (select count(*) from v where status = 3 and geo_verified) as verified,
           (select count(*) from v where status = 3 and not geo_verified and distance_from_outlet_m > 300) as far,
           (select count(*) from v where status = 3 and distance_from_outlet_m <= 100 and dwell_seconds < min_dwell_minutes * 60) as short_dwell,
           (select count(*) filter (where distance_from_outlet_m <= 100) * 100 / count(*) from v) as near_pct,
           (select count(*) from v where visit_date <> (check_in_device_time at time zone 'Asia/Kolkata')::date or check_in_at < check_in_device_time) as dates_off,
           (select count(*) from (select user_id from v where status = 2 group by user_id having count(*) > 1) x) as users_with_two_open,
           (select count(*) from v where not exists (select 1 from beat_plan b join beat_plan_outlet bo on bo.beat_plan_id = b.id
              where b.user_id = v.user_id and bo.outlet_id = v.outlet_id and b.weekday = extract(isodow from v.visit_date))) as unplanned,
           (select count(*) from v left join sales_order so on so.id = v.order_id
             where (v.outcome = 1) <> (v.order_id is not null) or (v.order_id is not null and (so.created_by_user_id <> v.user_id or so.order_date <> v.visit_date))) as orders_off,
           (select count(*) from v left join no_sale_reason r on r.id = v.no_sale_reason_id
             where (v.outcome = 2) <> (v.no_sale_reason_id is not null) or (v.no_sale_reason_id is not null and r.status <> 1)) as reasons_off,
           (select count(*) from (select order_id from v where order_id is not null group by order_id having count(*) > 1) x) as orders_twice,
           (select count(*) from v where exists (select 1 from leave_application l where l.user_id = v.user_id and l.status = 2
              and v.visit_date between l.from_date and l.to_date)) as on_leave,
           (select count(*) from (select organization_id, client_ref from v group by 1, 2 having count(*) > 1) x) as refs_twice`,
      );
      expect(v).toMatchObject({
        distance_off: '0', verification_off: '0', open_off: '0', dates_off: '0', users_with_two_open: '0', unplanned: '0',
        orders_off: '0', reasons_off: '0', orders_twice: '0', on_leave: '0', refs_twice: '0',
      });
      expect(Number(v.verified)).toBeGreaterThan(0);
      expect(Number(v.far)).toBeGreaterThan(0);
      expect(Number(v.short_dwell)).toBeGreaterThan(0);
      expect(Number(v.near_pct)).toBeGreaterThanOrEqual(70);
    });

    it('keeps positions moderate and along the visits, and leaves that never overlap', async () => {
      const [p] = await query<Record<string, string>>(
        db.url,
        `select (select count(*) from user_position) as positions,
                (select count(*) from visit) as visits,
                (select count(distinct (recorded_at at time zone 'Asia/Kolkata')::date) from user_position) as days,
                (select count(*) from user_position p where not exists (select 1 from visit v where v.user_id = p.user_id
                   and v.visit_date = (p.recorded_at at time zone 'Asia/Kolkata')::date)) as off_visit_days,
                (select count(*) from user_position where received_at < recorded_at or battery_pct not between 0 and 100) as bad,
                (select count(*) from leave_application a join leave_application b on a.user_id = b.user_id and a.id < b.id
                   and a.status in (1, 2) and b.status in (1, 2) and a.from_date <= b.to_date and b.from_date <= a.to_date) as overlapping,
                (select count(*) from leave_application where to_date < from_date or (half_day and (from_date <> to_date or days <> 0.5))
                   or (not half_day and days <> to_date - from_date + 1)
                   or ((status in (2, 3)) <> (decided_by_user_id is not null and decided_at is not null))) as bad_leaves,
                (select count(distinct status) from leave_application where status in (1, 2, 3)) as statuses`,
      );
      expect(p).toMatchObject({ off_visit_days: '0', bad: '0', overlapping: '0', bad_leaves: '0', statuses: '3' });
      // Like every seeded timestamp, the field force's are before the as-of day begins (workspace time).
      const [late] = await query<Record<string, string>>(
        db.url,
        `with t as (select $1::date::timestamp at time zone 'Asia/Kolkata' as as_of)
         select (select count(*) from visit, t where greatest(created_at, updated_at, check_in_at, check_out_at, check_out_device_time) >= t.as_of) as visits,
                (select count(*) from user_position, t where greatest(recorded_at, received_at, created_at) >= t.as_of) as positions,
                (select count(*) from leave_application, t where greatest(created_at, updated_at, decided_at) >= t.as_of) as leaves,
                (select count(*) from beat_plan, t where created_at >= t.as_of or effective_from >= $1::date) as plans,
                (select count(*) from outlet, t where tagged_at >= t.as_of) as outlets`,
        [TODAY],
      );
      expect(late).toEqual({ visits: '0', positions: '0', leaves: '0', plans: '0', outlets: '0' });
      expect(Number(p.days)).toBeLessThanOrEqual(3);
      expect(Number(p.positions)).toBeGreaterThan(0);
      expect(Number(p.positions)).toBeLessThan(Number(p.visits) * 10);
    });

    it('lists the seeded workspaces of a seed (ids, slugs, first admin)', async () => {
      const listed = await seededWorkspaces(db.url, SEED);
      expect(listed).toEqual(first.workspaces);
      expect(listed.map((w) => [w.index, w.slug, w.ordersPerOrg, w.asOf])).toEqual([
        [1, 'seed11-0001', ORDERS, TODAY],
        [2, 'seed11-0002', ORDERS, TODAY],
      ]);
      expect(listed[0].workspaceId).toMatch(/^ws_[0-9a-f]{16}$/);
      expect(await seededWorkspaces(db.url, 1)).toEqual([]);
    });
  });

  describe('determinism', () => {
    const others: TestDatabase[] = [];
    afterAll(async () => {
      for (const other of others) await other.drop();
    });

    it('the same seed gives the same rows in another database (one workspace at a time, foreign keys checked); another seed does not', async () => {
      const same = await createTestDatabase();
      const other = await createTestDatabase();
      others.push(same, other);
      // Rows in the way first, so the serial ids differ from the first database's.
      await query(same.url, `insert into organization (workspace_id, slug, display_name) values ('ws_0000000000000000', 'somebody-else', 'Somebody Else')`);
      await seedWorkspaces(same.url, { orgs: ORGS, ordersPerOrg: ORDERS, seed: SEED, concurrency: 1, checkForeignKeys: true });
      await seedWorkspaces(other.url, { orgs: ORGS, ordersPerOrg: ORDERS, seed: SEED + 1 });
      const [a, b, c] = await Promise.all([digest(db.url), digest(same.url), digest(other.url)]);
      expect(b).toEqual(a);
      expect(c.orders).not.toBe(a.orders);
      expect(c.items).not.toBe(a.items);
      expect(c.users).not.toBe(a.users);
      for (const part of ['beat_plans', 'visits', 'positions', 'leaves', 'targets']) {
        expect(a[part], part).not.toBeNull();
        expect(c[part], part).not.toBe(a[part]);
      }
    }, 120_000);

    it('the as-of day fixes the dates: the same --as-of gives the same rows on any day', async () => {
      const one = await createTestDatabase();
      const two = await createTestDatabase();
      others.push(one, two);
      const summary = await seedWorkspaces(one.url, { orgs: 1, ordersPerOrg: 50, seed: 5, asOf: '2025-03-15' });
      await seedWorkspaces(two.url, { orgs: 1, ordersPerOrg: 50, seed: 5, asOf: '2025-03-15', concurrency: 1 });
      expect(summary.asOf).toBe('2025-03-15');
      expect(await digest(two.url)).toEqual(await digest(one.url));
      const [range] = await query<{ first: string; last: string }>(one.url, `select to_char(min(order_date), 'YYYY-MM-DD') as first, to_char(max(order_date), 'YYYY-MM-DD') as last from sales_order`);
      expect(range.first >= '2023-03-16').toBe(true);
      expect(range.last <= '2025-03-14').toBe(true);
    }, 60_000);
  });

  describe('reruns', () => {
    it('a rerun finds everything there: "already seeded", nothing written', async () => {
      const before = await tableCounts(db.url);
      const again = await seedWorkspaces(db.url, { orgs: ORGS, ordersPerOrg: ORDERS, seed: SEED });
      expect(again).toMatchObject({ alreadySeeded: true, created: 0, existing: 2, totalRows: 0, asOf: TODAY });
      expect(again.workspaces).toEqual(first.workspaces);
      expect(await tableCounts(db.url)).toEqual(before);
    });

    it('a run cut short (one workspace missing) is completed, with the same rows as before', async () => {
      const before = await digest(db.url);
      await query(db.url, `delete from organization where slug = 'seed11-0002'`);
      const resumed = await seedWorkspaces(db.url, { orgs: ORGS, ordersPerOrg: ORDERS, seed: SEED });
      expect(resumed).toMatchObject({ alreadySeeded: false, created: 1, existing: 1 });
      expect(resumed.rows.sales_order).toBe(ORDERS);
      expect(await digest(db.url)).toEqual(before);
    }, 60_000);

    it('more workspaces of the same seed add the missing ones only', async () => {
      const more = await seedWorkspaces(db.url, { orgs: 3, ordersPerOrg: ORDERS, seed: SEED });
      expect(more).toMatchObject({ created: 1, existing: 2 });
      expect(more.workspaces.map((w) => w.slug)).toEqual(['seed11-0001', 'seed11-0002', 'seed11-0003']);
      await query(db.url, `delete from organization where slug = 'seed11-0003'`);
    }, 60_000);

    it('another order count or as-of day for workspaces already seeded is refused, naming the flag, and writes nothing', async () => {
      const before = await tableCounts(db.url);
      const attempt = seedWorkspaces(db.url, { orgs: 3, ordersPerOrg: ORDERS + 1, seed: SEED });
      await expect(attempt).rejects.toThrow(SeedUsageError);
      await expect(attempt).rejects.toThrow(/^--orders 301: seed11-0001 was seeded with 300 orders per workspace/);
      await expect(seedWorkspaces(db.url, { orgs: 3, ordersPerOrg: ORDERS, seed: SEED, asOf: '2025-01-01' })).rejects.toThrow(
        `--as-of 2025-01-01: seed11-0001 was seeded as of ${TODAY}`,
      );
      expect(await tableCounts(db.url)).toEqual(before);
    });

    it('a slug of the seed taken by a workspace the seed did not make is refused, naming --seed', async () => {
      const other = await createTestDatabase();
      try {
        await query(other.url, `insert into organization (workspace_id, slug, display_name) values ('ws_0000000000000001', 'seed11-0002', 'Not Seeded')`);
        await expect(seedWorkspaces(other.url, { orgs: 2, ordersPerOrg: 10, seed: SEED })).rejects.toThrow(
          '--seed 11: the slug seed11-0002 belongs to a workspace this seed did not create; choose another --seed',
        );
        expect((await tableCounts(other.url)).organization).toBe(1);
      } finally {
        await other.drop();
      }
    });
  });

  describe('the service over seeded data', () => {
    let t: TestApp;
    let ws: Workspace;
    let key: string;
    beforeAll(async () => {
      t = await buildTestApp({}, { sharedDatabase: db });
      const w = first.workspaces[0];
      const roles = await query<{ id: number; name: string }>(db.url, 'select id, name from role where organization_id = $1', [w.id]);
      ws = { organizationId: w.id, slug: w.slug, adminId: w.adminUserId!, token: '', roles: Object.fromEntries(roles.map((r) => [r.name, r.id])) };
      ws.token = await signIn(t, ws, w.adminUserId!);
      key = (await createApiKey(t, ws, { scopes: 'read,write' })).key;
    });
    afterAll(() => t.close());

    it('the first admin signs in with the printed password', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: first.workspaces[0].adminEmail, password: SEED_PASSWORD, challenge_token: 'x' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().workspace).toMatchObject({ slug: 'seed11-0001', status: 1 });
    });

    it('an API key lists the workspace orders (total 300, newest first) and reads one with its lines and history', async () => {
      const list = await t.request({ method: 'GET', url: '/api/v1/orders?limit=5', apiKey: key });
      expect(list.statusCode, list.body).toBe(200);
      const body = list.json();
      expect(body.pagination.total).toBe(ORDERS);
      expect(body.data[0].order_code).toMatch(/-000300$/);
      const detail = await t.request({ method: 'GET', url: `/api/v1/orders/${body.data[0].id}`, apiKey: key });
      expect(detail.statusCode, detail.body).toBe(200);
      const order = detail.json().data;
      expect(order.items).toHaveLength(order.order_items_count);
      const sum = order.items.reduce((n: number, i: { amount: number }) => n + Math.round(i.amount * 100), 0);
      expect(sum).toBe(Math.round(order.order_total_amount * 100));
      expect(order.status_history.map((h: { to_status: number }) => h.to_status)).toEqual(Array.from({ length: order.order_status }, (_, i) => i + 1));
      const other = await t.request({ method: 'GET', url: '/api/v1/orders?limit=1', apiKey: key, query: { status: '4' } });
      expect(other.json().pagination.total).toBeGreaterThan(200);
    });

    it('the beat-plan day view shows the seeded visits on the planned outlets of their day (fortnightly and monthly plans first)', async () => {
      const org = first.workspaces[0].id;
      const days = await query<{ user_id: number; visit_date: string }>(
        db.url,
        `select v.user_id, to_char(v.visit_date, 'YYYY-MM-DD') as visit_date
           from visit v join beat_plan b on b.user_id = v.user_id and b.weekday = extract(isodow from v.visit_date)
          where v.organization_id = $1 and v.status = 3
          group by 1, 2 order by max(b.frequency) desc, 2 desc, 1 limit 8`,
        [org],
      );
      expect(days.length).toBeGreaterThan(0);
      for (const day of days) {
        const visits = await query<{ outlet_id: number }>(
          db.url,
          'select outlet_id from visit where organization_id = $1 and user_id = $2 and visit_date = $3 and status = 3 order by id',
          [org, day.user_id, day.visit_date],
        );
        const res = await t.request({ method: 'GET', url: `/api/v1/beat-plans?date=${day.visit_date}&user_id=${day.user_id}`, apiKey: key });
        expect(res.statusCode, res.body).toBe(200);
        const plans = res.json().data as Array<{ outlets: Array<{ outlet_id: number; visited: boolean }> }>;
        expect(plans, `${day.user_id} ${day.visit_date}`).toHaveLength(1);
        const planned = new Map(plans[0].outlets.map((o) => [o.outlet_id, o]));
        for (const v of visits) expect(planned.get(v.outlet_id), `${day.visit_date} outlet ${v.outlet_id}`).toMatchObject({ visited: true });
      }
    });

    it('the dashboard answers over the seeded orders and payments', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/dashboard/stats', apiKey: key });
      expect(res.statusCode, res.body).toBe(200);
      const s = res.json().data;
      expect(s.order_initiated_count + s.order_forwarded_count + s.order_approved_count + s.order_delivered_count).toBe(ORDERS);
      expect(s.total_employees).toBeGreaterThanOrEqual(5);
      expect(s.total_tagged_outlets).toBeGreaterThan(0);
      expect(s.total_collection).toBeGreaterThan(0);
      expect(s.pending_amount).toBeGreaterThan(0);
      const monthly = await t.request({ method: 'GET', url: '/api/v1/dashboard/monthly-sales', apiKey: key });
      expect(monthly.statusCode, monthly.body).toBe(200);
    });

    it('POST /schemes/preview of the cart of a seeded order on its day gives what the order carries (orders under schemes without a budget)', async () => {
      // Budgeted schemes' previews read today's consumption, so the sample is of orders whose schemes have no budget.
      const sample = await query<{ id: number; customer_id: number; day: string }>(
        db.url,
        `select o.id, o.customer_id, to_char(o.order_date, 'YYYY-MM-DD') as day
           from sales_order o
          where o.organization_id = $1
            and exists (select 1 from scheme_use u where u.order_id = o.id)
            and not exists (select 1 from scheme_use u join scheme s on s.id = u.scheme_id where u.order_id = o.id and s.budget_kind is not null)
            and not exists (select 1 from order_item i join scheme s on s.organization_id = i.organization_id and s.target_kind = 1 and s.target_id = i.product_variant_id
                             where i.order_id = o.id and s.budget_kind is not null and i.scheme_id is null)
          order by o.id limit 5`,
        [ws.organizationId],
      );
      expect(sample.length).toBeGreaterThan(0);
      for (const o of sample) {
        const items = await query<{ product_variant_id: number; quantity: number; discount_amount: string; amount: string; scheme_id: number | null }>(
          db.url,
          'select product_variant_id, quantity, discount_amount, amount, scheme_id from order_item where order_id = $1 order by id',
          [o.id],
        );
        const paid = items.filter((i) => i.scheme_id === null);
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/schemes/preview',
          apiKey: key,
          payload: { customer_id: o.customer_id, date: o.day, items: paid.map((i) => ({ product_variant_id: i.product_variant_id, quantity: i.quantity })) },
        });
        expect(res.statusCode, res.body).toBe(200);
        const p = res.json().data;
        expect(p.lines.map((l: any) => [l.discount_amount, l.amount]), `order ${o.id}`).toEqual(paid.map((i) => [Number(i.discount_amount), Number(i.amount)]));
        expect(p.free_lines.map((f: any) => [f.product_variant_id, f.quantity, f.scheme_id])).toEqual(items.filter((i) => i.scheme_id !== null).map((i) => [i.product_variant_id, i.quantity, i.scheme_id]));
      }
    });

    it('the FOC list shows the seeded requests, and one pending at the tier of the first administrator is approved through the API as any other', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/foc/requests?limit=100', apiKey: key });
      expect(res.statusCode, res.body).toBe(200);
      const listed = res.json();
      const [{ n }] = await query<{ n: string }>(db.url, 'select count(*) as n from foc_request where organization_id = $1', [ws.organizationId]);
      expect(listed.data.length).toBe(Number(n));
      const fulfilled = listed.data.find((r: any) => r.fulfilled_order_id !== null);
      const order = await t.request({ method: 'GET', url: `/api/v1/orders/${fulfilled.fulfilled_order_id}`, apiKey: key });
      expect(order.statusCode, order.body).toBe(200);
      expect(order.json().data.order_total_amount).toBe(0);
      // The request pending at tier 2 is the first administrator's to decide: the inbox has it, and approving it approves the request.
      const [pending] = await query<{ id: number; approval_id: number }>(
        db.url,
        'select f.id, f.approval_id from foc_request f join approval a on a.id = f.approval_id where f.organization_id = $1 and a.status = 1 and a.current_tier = 2 order by f.id limit 1',
        [ws.organizationId],
      );
      expect(pending).toBeDefined();
      // A fresh session (the sign-in test above started another, which ends this one).
      const token = await signIn(t, ws, ws.adminId);
      const inbox = await t.request({ method: 'GET', url: '/api/v1/approvals/inbox', token });
      expect(inbox.statusCode, inbox.body).toBe(200);
      expect(inbox.json().data.map((a: any) => a.id)).toContain(pending.approval_id);
      const approve = await t.request({ method: 'POST', url: `/api/v1/approvals/${pending.approval_id}/approve`, token, payload: { comment: 'ok' } });
      expect(approve.statusCode, approve.body).toBe(200);
      const after = await t.request({ method: 'GET', url: `/api/v1/foc/requests/${pending.id}`, apiKey: key });
      expect(after.json().data.status).toBe(2);
    });

    it('an order created through the API afterwards gets the next number', async () => {
      const [customer] = await query<{ id: number }>(
        db.url,
        `select id from app_user where organization_id = $1 and user_type = 3 and status = 1 order by id limit 1`,
        [ws.organizationId],
      );
      const [variant] = await query<{ id: number }>(db.url, 'select id from product_variant where organization_id = $1 order by id limit 1', [ws.organizationId]);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/orders',
        apiKey: key,
        payload: { user_id: customer.id, items: [{ product_variant_id: variant.id, quantity: 2 }] },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.order_code).toMatch(/^ORD-\d{4}-000301$/);
      const [count] = await query<{ n: string; codes: string }>(db.url, 'select count(*) as n, count(distinct order_code) as codes from sales_order where organization_id = $1', [ws.organizationId]);
      expect(count).toEqual({ n: '301', codes: '301' });
      // Undo, so the rerun tests' counts stay those of the seed.
      await query(db.url, 'delete from sales_order where organization_id = $1 and order_code like $2', [ws.organizationId, '%-000301']);
      await query(db.url, `update tenant_counter set value = $2 where organization_id = $1 and name = 'order'`, [ws.organizationId, ORDERS]);
    });
  });

  describe('the command', () => {
    const savedUrl = process.env.DATABASE_URL;
    beforeAll(() => {
      process.env.DATABASE_URL = db.url;
    });
    afterAll(() => {
      if (savedUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = savedUrl;
    });

    async function seed(...argv: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runSeed(argv, (line) => out.push(line), (line) => err.push(line), null);
      return { code, out, err };
    }

    it.each([
      [[], '--orgs is required'],
      [['--orgs', '2'], '--orders is required'],
      [['--orgs', '0', '--orders', '10'], '--orgs must be an integer from 1 to 1000, got 0'],
      [['--orgs', '1001', '--orders', '10'], '--orgs must be an integer from 1 to 1000, got 1001'],
      [['--orgs', 'two', '--orders', '10'], '--orgs must be an integer from 1 to 1000, got "two"'],
      [['--orgs', '2', '--orders', '-1'], '--orders must be an integer from 0 to 9999999, got "-1"'],
      [['--orgs', '2', '--orders', '1.5'], '--orders must be an integer from 0 to 9999999, got "1.5"'],
      [['--orgs', '2', '--orders', '10000000'], '--orders must be an integer from 0 to 9999999, got 10000000'],
      [['--orgs', '2', '--orders', '10', '--seed', '100000'], '--seed must be an integer from 0 to 99999, got 100000'],
      [['--orgs', '2', '--orders', '10', '--seed'], '--seed needs a value'],
      [['--orgs', '2', '--orders', '10', '--as-of', '2026-02-30'], '--as-of must be a date YYYY-MM-DD from 2000-01-01 on, got "2026-02-30"'],
      [['--orgs', '2', '--orders', '10', '--workspaces', '3'], 'Unknown flag --workspaces'],
      [['--orgs=2', '--orders=10', '--orgs=3'], '--orgs is given twice'],
      [['--orgs', '2', '--orders', '10', 'extra'], 'Unexpected argument "extra"'],
    ])('%j exits 2 naming the flag, and writes nothing', async (argv, message) => {
      const before = await tableCounts(db.url);
      const { code, out, err } = await seed(...argv);
      expect(code).toBe(2);
      expect(out).toEqual([]);
      expect(err[0].split('\n')[0]).toBe(message);
      expect(await tableCounts(db.url)).toEqual(before);
    });

    it('an order count that does not match the seeded workspaces exits 2 naming --orders', async () => {
      const { code, err } = await seed('--orgs', '2', '--orders', '400', '--seed', String(SEED));
      expect(code).toBe(2);
      expect(err[0]).toMatch(/^--orders 400: seed11-0001 was seeded with 300 orders per workspace; run with --orders 300/);
    });

    it('prints "already seeded" and exits 0 when the workspaces are there', async () => {
      const { code, out, err } = await seed(`--orgs=${ORGS}`, `--orders=${ORDERS}`, `--seed=${SEED}`);
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(out[0]).toMatch(/^already seeded: 2 workspace\(s\) of seed 11 with 300 orders each/);
      expect(out.at(-1)).toBe(`every seeded user's password: ${SEED_PASSWORD}`);
    });

    it('seeds and prints the counts per table, the time and the rate', async () => {
      const { code, out } = await seed('--orgs', '1', '--orders', '20', '--seed', '77', '--as-of', '2025-01-10');
      expect(code).toBe(0);
      expect(out[0]).toBe('seeded 1 workspace(s) of seed 77, 20 orders each, dated up to the day before 2025-01-10');
      expect(out).toContainEqual(expect.stringMatching(/^ {2}sales_order +20$/));
      expect(out).toContainEqual(expect.stringMatching(/^ {2}total +[\d,]+$/));
      expect(out).toContainEqual(expect.stringMatching(/^\d+\.\d s, [\d,]+ rows\/s$/));
      expect(out.at(-1)).toBe(`every seeded user's password: ${SEED_PASSWORD}`);
      await query(db.url, `delete from organization where slug like 'seed77-%'`);
    });

    it('zero orders per workspace is allowed: workspaces, people and catalogue only', async () => {
      const summary = await seedWorkspaces(db.url, { orgs: 1, ordersPerOrg: 0, seed: 78 });
      expect(summary.rows).toMatchObject({ organization: 1, sales_order: 0, order_item: 0, payment: 0, tenant_counter: 2 });
      expect(summary.rows.app_user).toBeGreaterThan(20);
      expect((await seedWorkspaces(db.url, { orgs: 1, ordersPerOrg: 0, seed: 78 })).alreadySeeded).toBe(true);
      await query(db.url, `delete from organization where slug like 'seed78-%'`);
    });
  });
});

function shift(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
