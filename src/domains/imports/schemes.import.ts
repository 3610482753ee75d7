import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, tenantSql } from '../../db/tenant-sql';
import { executeBound } from './bound-sql';
import { ValidationError } from '../../errors/app-error';
import { checkScheme, type CheckedScheme, type SchemeInput } from '../schemes/scheme-rules';
import { Scheme, SchemeBudgetKind, SchemeKind, SchemeScope, SchemeStatus, SchemeTarget } from '../schemes/scheme.entity';
import { CellReader } from './cells';
import { defineImportKind, ruleError, type NumberedRow, type RowFailure } from './import-kind';

/** The scheme's own fields, as one row gives them (every row of a scheme repeats them). */
interface SchemeFields {
  code: string;
  name: string;
  kind: number | undefined;
  targetKind: number | undefined;
  target: string;
  validFrom: string | undefined;
  validTo: string | undefined;
  scope: number | undefined;
  scopeIds: number[] | undefined;
  priority: number | undefined;
  stackable: boolean | undefined;
  budgetKind: number | undefined;
  budget: number | undefined;
  status: number | undefined;
}

/** A row: its scheme's fields and one slab. */
export interface SchemeRow {
  scheme: SchemeFields;
  slab: { minQty: number | undefined; discountPercent: number | undefined; discountAmount: number | undefined; freeQty: number | undefined; freeSku: string | undefined; recursive: boolean | undefined };
}

/** Scheme field (the schemes' rules) → column. */
const SCHEME_COLUMNS: Record<keyof SchemeFields, string> = {
  code: 'code', name: 'name', kind: 'kind', targetKind: 'target_kind', target: 'target', validFrom: 'valid_from', validTo: 'valid_to',
  scope: 'scope', scopeIds: 'scope_ids', priority: 'priority', stackable: 'stackable', budgetKind: 'budget_kind', budget: 'budget', status: 'status',
};
const FIELDS: Record<string, string> = {
  ...SCHEME_COLUMNS, targetId: 'target', slabs: 'min_qty', minQty: 'min_qty', discountPercent: 'discount_percent',
  discountAmount: 'discount_amount', freeQty: 'free_qty', freeVariantId: 'free_sku', recursive: 'recursive',
};

const KINDS = { discount: SchemeKind.DISCOUNT, free_goods: SchemeKind.FREE_GOODS };
const TARGETS = { variant: SchemeTarget.VARIANT, product: SchemeTarget.PRODUCT, product_class: SchemeTarget.PRODUCT_CLASS };
const SCOPES = { all: SchemeScope.ALL, town: SchemeScope.TOWN, route: SchemeScope.ROUTE, user_type: SchemeScope.USER_TYPE, customers: SchemeScope.CUSTOMERS };
const BUDGETS = { amount: SchemeBudgetKind.AMOUNT, units: SchemeBudgetKind.UNITS };
const STATUSES = { active: SchemeStatus.ACTIVE, disabled: SchemeStatus.DISABLED };

/** A scheme's rows, in file order, by code. */
function groups<T extends { row: SchemeRow }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(r.row.scheme.code, [...(out.get(r.row.scheme.code) ?? []), r]);
  return out;
}

/**
 * Schemes, keyed by code: one row per slab, the rows of a scheme sharing its code (and repeating
 * its fields, which must agree) in ascending min_qty. A known code is updated when anything
 * differs (slabs included), a new one created; the whole scheme is checked by the schemes' own
 * rules (checkScheme). Targets are named, not numbered: a SKU (variant), a product name or a
 * product class name; free_sku names the free variant. When one row of a scheme fails, every row
 * of it fails, so that the failed rows CSV holds whole schemes.
 */
export const schemesImport = defineImportKind<SchemeRow>({
  kind: 'schemes',
  title: 'Schemes',
  keyDescription: 'code (one row per slab)',
  columns: [
    { header: 'code', required: true, example: 'DIWALI-10', description: 'The key: letters, digits, - and _; up to 40. Rows with the same code are one scheme, a slab each', width: 14 },
    { header: 'name', required: true, example: 'Diwali 10 + 1', description: 'Up to 120 characters', width: 20 },
    { header: 'kind', required: true, example: 'free_goods', description: 'discount (1) or free_goods (2)', width: 12 },
    { header: 'target_kind', required: true, example: 'variant', description: 'variant (1), product (2) or product_class (3)', width: 12 },
    { header: 'target', required: true, example: 'TM-500', description: 'The SKU (variant), product name or product class name the slabs count', width: 16 },
    { header: 'valid_from', required: true, example: '2026-12-01', description: 'First day, YYYY-MM-DD', width: 12 },
    { header: 'valid_to', required: false, example: '2026-12-31', description: 'Last day, inclusive; empty: open-ended', width: 12 },
    { header: 'scope', required: false, example: 'all', description: 'all (1, default), town (2), route (3), user_type (4), customers (5)', width: 10 },
    { header: 'scope_ids', required: false, example: '', description: 'Town, route or customer ids, or user types (2, 3), separated by commas or spaces', width: 12 },
    { header: 'priority', required: false, example: 0, description: '0 to 1000, higher first (default 0)', width: 8 },
    { header: 'stackable', required: false, example: 'no', description: 'yes/no (default no)', width: 9 },
    { header: 'budget_kind', required: false, example: '', description: 'amount (1) or units (2; free goods only); with budget', width: 11 },
    { header: 'budget', required: false, example: '', description: 'The budget, in its kind', width: 10 },
    { header: 'status', required: false, example: 'active', description: 'active (1, default) or disabled (2)', width: 9 },
    { header: 'min_qty', required: true, example: 10, description: "This slab's least quantity; a scheme's slabs ascend", width: 8 },
    { header: 'discount_percent', required: false, example: '', description: 'Discount slabs: percent off (or discount_amount)', width: 10 },
    { header: 'discount_amount', required: false, example: '', description: 'Discount slabs: amount off each unit', width: 10 },
    { header: 'free_qty', required: false, example: 1, description: 'Free goods slabs: whole free units', width: 8 },
    { header: 'free_sku', required: false, example: '', description: 'Free goods: the free variant’s SKU (default: the target variant)', width: 12 },
    { header: 'recursive', required: false, example: 'no', description: 'Free goods: for every min_qty reached (yes/no)', width: 9 },
  ],

  parse(values) {
    const c = new CellReader(values);
    const scheme: SchemeFields = {
      code: values.code,
      name: values.name,
      kind: c.code('kind', KINDS),
      targetKind: c.code('target_kind', TARGETS),
      target: values.target,
      validFrom: c.text('valid_from'),
      validTo: c.text('valid_to'),
      scope: c.code('scope', SCOPES),
      scopeIds: c.integers('scope_ids'),
      priority: c.integer('priority'),
      stackable: c.boolean('stackable'),
      budgetKind: c.code('budget_kind', BUDGETS),
      budget: c.number('budget'),
      status: c.code('status', STATUSES),
    };
    const slab = {
      minQty: c.integer('min_qty'),
      discountPercent: c.number('discount_percent'),
      discountAmount: c.number('discount_amount'),
      freeQty: c.integer('free_qty'),
      freeSku: c.text('free_sku'),
      recursive: c.boolean('recursive'),
    };
    return c.errors.length > 0 ? c.errors : { scheme, slab };
  },

  async check(em, ctx, rows) {
    const failures: RowFailure[] = [];
    const targets = await resolveNames(em, ctx.organizationId, rows.map((r) => r.row));
    for (const [code, group] of groups(rows)) {
      const first = group[0];
      const own: RowFailure[] = [];
      for (const r of group.slice(1)) {
        for (const [key, column] of Object.entries(SCHEME_COLUMNS) as Array<[keyof SchemeFields, string]>) {
          if (JSON.stringify(r.row.scheme[key]) !== JSON.stringify(first.row.scheme[key])) {
            own.push({ rowNumber: r.rowNumber, field: column, message: `differs from row ${first.rowNumber}, the first row of scheme ${code}` });
          }
        }
      }
      if (own.length === 0) {
        try {
          await checkScheme(em, inputOf(group.map((g) => g.row), targets));
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          const slab = /^slabs\[(\d+)\]/.exec(err.field ?? '');
          const at = slab ? group[Number(slab[1])] ?? first : first;
          own.push({ rowNumber: at.rowNumber, ...ruleError(err, FIELDS) });
        }
      }
      failures.push(...own);
      if (own.length > 0) {
        const failed = new Set(own.map((f) => f.rowNumber));
        for (const r of group) if (!failed.has(r.rowNumber)) failures.push({ rowNumber: r.rowNumber, field: '', message: `not written: scheme ${code} has a failed row (${own[0].rowNumber})` });
      }
    }
    return failures;
  },

  async write(tx, ctx, rows) {
    const targets = await resolveNames(tx, ctx.organizationId, rows.map((r) => r.row));
    const byCode = groups(rows);
    const existing = new Map((await tx.find(Scheme, { code: { $in: [...byCode.keys()] } })).map((s) => [s.code, s]));
    const counts = { inserted: 0, updated: 0, unchanged: 0 };
    for (const [code, group] of byCode) {
      const checked: CheckedScheme = await checkScheme(tx, inputOf(group.map((g) => g.row), targets));
      const stored = existing.get(code);
      if (!stored) {
        tx.create(Scheme, { organizationId: ctx.organizationId, ...checked });
        counts.inserted += group.length;
      } else if (differs(stored, checked)) {
        tx.assign(stored, checked);
        counts.updated += group.length;
      } else counts.unchanged += group.length;
    }
    await tx.flush();
    return counts;
  },
});

/** Whether a stored scheme differs from a checked one in any field the import sets. */
function differs(stored: Scheme, checked: CheckedScheme): boolean {
  return (Object.keys(checked) as Array<keyof CheckedScheme>).some((k) => stable(stored[k]) !== stable(checked[k]));
}

/** A value as text whatever the order of its objects' keys (jsonb reorders them), numeric text as numbers, dates as days. */
function stable(v: unknown): string {
  if (v instanceof Date) return JSON.stringify(v.toISOString().slice(0, 10));
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return String(Number(v));
  return JSON.stringify(v ?? null);
}

/** Ids of the targets and free variants the rows name. */
interface Names {
  variant: Map<string, number>;
  product: Map<string, number[]>;
  productClass: Map<string, number>;
}

async function resolveNames(em: EntityManager, organizationId: number, rows: readonly SchemeRow[]): Promise<Names> {
  const skus = new Set<string>();
  const products = new Set<string>();
  const classes = new Set<string>();
  for (const { scheme, slab } of rows) {
    if (scheme.targetKind === SchemeTarget.VARIANT) skus.add(scheme.target);
    if (scheme.targetKind === SchemeTarget.PRODUCT) products.add(scheme.target.toLowerCase());
    if (scheme.targetKind === SchemeTarget.PRODUCT_CLASS) classes.add(scheme.target.toLowerCase());
    if (slab.freeSku) skus.add(slab.freeSku);
  }
  const v = tenantSql(organizationId, 'v');
  const p = tenantSql(organizationId, 'p');
  const c = tenantSql(organizationId, 'c');
  const list = (s: Set<string>) => JSON.stringify([...s]);
  // One after another: inside a transaction they share its connection.
  const variants = await executeBound<{ id: number; k: string }>(em, sql`select v.id, v.item_sku_code as k from product_variant v where ${v.owns()} and v.item_sku_code in (select jsonb_array_elements_text(${list(skus)}::jsonb))`);
  const prods = await executeBound<{ id: number; k: string }>(em, sql`select p.id, lower(p.name) as k from product p where ${p.owns()} and lower(p.name) in (select jsonb_array_elements_text(${list(products)}::jsonb))`);
  const cls = await executeBound<{ id: number; k: string }>(em, sql`select c.id, lower(c.name) as k from product_class c where ${c.owns()} and lower(c.name) in (select jsonb_array_elements_text(${list(classes)}::jsonb))`);
  const product = new Map<string, number[]>();
  for (const r of prods) product.set(r.k, [...(product.get(r.k) ?? []), r.id]);
  return { variant: new Map(variants.map((r) => [r.k, r.id])), product, productClass: new Map(cls.map((r) => [r.k, r.id])) };
}

/** A scheme's rows as the schemes' rules take it; a name that finds nothing is a 400 naming its column. */
function inputOf(rows: readonly SchemeRow[], names: Names): SchemeInput {
  const s = rows[0].scheme;
  let targetId: number | undefined;
  if (s.targetKind === SchemeTarget.VARIANT) targetId = names.variant.get(s.target);
  else if (s.targetKind === SchemeTarget.PRODUCT) {
    const ids = names.product.get(s.target.toLowerCase()) ?? [];
    if (ids.length > 1) throw new ValidationError('targetId', `names ${ids.length} products: give them different names first`);
    targetId = ids[0];
  } else targetId = names.productClass.get(s.target.toLowerCase());
  if (targetId === undefined) throw new ValidationError('targetId', `does not name a ${s.targetKind === SchemeTarget.VARIANT ? 'SKU' : s.targetKind === SchemeTarget.PRODUCT ? 'product' : 'product class'} of this workspace`);
  return {
    name: s.name, code: s.code, kind: s.kind!, targetKind: s.targetKind!, targetId, scope: s.scope, scopeIds: s.scopeIds, validFrom: s.validFrom!, validTo: s.validTo,
    priority: s.priority, stackable: s.stackable, budgetKind: s.budgetKind, budget: s.budget, status: s.status,
    slabs: rows.map(({ slab }, i) => {
      let freeVariantId: number | undefined;
      if (slab.freeSku !== undefined) {
        freeVariantId = names.variant.get(slab.freeSku);
        if (freeVariantId === undefined) throw new ValidationError(`slabs[${i}].freeVariantId`, 'does not name a SKU of this workspace');
      }
      return { minQty: slab.minQty!, discountPercent: slab.discountPercent, discountAmount: slab.discountAmount, freeQty: slab.freeQty, freeVariantId, recursive: slab.recursive };
    }),
  };
}

export type { NumberedRow };
