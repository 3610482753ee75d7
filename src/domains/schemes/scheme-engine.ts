import { SchemeBudgetKind, SchemeKind, SchemeScope, SchemeStatus, SchemeTarget, type SlabData } from './scheme.entity';

/*
 * The one evaluation of schemes over a cart, run by POST /schemes/preview and by order creation and
 * line replacement alike (scheme-apply.ts), so a preview and the order it becomes cannot disagree.
 * Pure: every amount is in whole paise (integers), every quantity in whole units.
 *
 * The rules (README, "Schemes"):
 * - A scheme counts the quantity of the cart's paid lines that match its target (a variant, every
 *   variant of a product, or of a product class). Free lines never count.
 * - The slab is the highest whose min_qty the quantity reaches; crossing down falls back to a lower
 *   slab or none. Nothing is remembered between evaluations.
 * - Free goods are whole units: free_qty, or, for a recursive slab, floor(quantity / min_qty) ×
 *   free_qty (buy 10 get 1 recursive: 15 → 1, 20 → 2; not recursive: 20 → 1).
 * - Discounts: percent of the line's amount still undiscounted, or an amount per unit (never more
 *   than the line), each rounded half-up once per line and scheme.
 * - Schemes are evaluated by priority (higher first, then id). A non-stackable scheme applies only
 *   to lines no earlier scheme benefits, and closes them; a stackable one applies to the lines not
 *   closed.
 * - Each scheme that gives free goods gets its own free line tagged with its id; two schemes giving
 *   the same variant give two lines.
 * - A budget caps what a scheme gives: free units up to what is left, discounts until the amount
 *   is used; a spent budget (nothing left) does not apply.
 */

export interface CartLine {
  variantId: number;
  productId: number;
  productClassId: number;
  quantity: number;
  unitPaise: number;
}

export interface Buyer {
  id: number;
  userType: number;
  townId: number | null;
  routeId: number | null;
}

export interface SchemeRule {
  id: number;
  code: string;
  name: string;
  kind: SchemeKind;
  targetKind: SchemeTarget;
  targetId: number;
  scope: SchemeScope;
  scopeIds: number[];
  validFrom: string;
  validTo: string | null;
  priority: number;
  stackable: boolean;
  status: SchemeStatus;
  budgetKind: SchemeBudgetKind | null;
  /** Budget in paise (amount) or units; null: none. */
  budget: number | null;
  /** What the ledger says is used, in the budget's unit. */
  used: number;
  slabs: SlabData[];
}

/** A free variant the engine may give: its selling price and whether it is sellable. */
export interface FreeVariant {
  active: boolean;
  unitPaise: number;
}

export type SchemeReason =
  | 'applied'
  | 'disabled'
  | 'not_started'
  | 'expired'
  | 'customer_not_eligible'
  | 'no_matching_lines'
  | 'blocked_by_other_scheme'
  | 'below_first_slab'
  | 'budget_spent'
  | 'free_variant_unavailable';

export interface NextSlab {
  addQuantity: number;
  minQty: number;
  message: string;
}

export interface SchemeOutcome {
  schemeId: number;
  code: string;
  name: string;
  applied: boolean;
  reason: SchemeReason;
  explanation: string;
  quantity: number;
  slab: SlabData | null;
  discountPaise: number;
  freeUnits: number;
  /** What the budget value used here is (paise for amount budgets, else 0). */
  amountPaise: number;
  next: NextSlab | null;
}

export interface EvaluatedLine extends CartLine {
  grossPaise: number;
  discountPaise: number;
  amountPaise: number;
  /** Schemes giving this line a discount. */
  schemeIds: number[];
}

export interface FreeLine {
  variantId: number;
  quantity: number;
  schemeId: number;
}

export interface Evaluation {
  lines: EvaluatedLine[];
  free: FreeLine[];
  grossPaise: number;
  discountPaise: number;
  totalPaise: number;
  schemes: SchemeOutcome[];
}

/** round(value × basisPoints / 10000), half up, for value ≥ 0, exactly (BigInt). */
export function percentOf(paise: number, basisPoints: number): number {
  return Number((BigInt(paise) * BigInt(basisPoints) + 5000n) / 10000n);
}

/** Free units a slab gives at `quantity`: whole units, floor, never fractional. */
export function freeUnitsOf(slab: SlabData, quantity: number): number {
  const free = slab.free_qty ?? 0;
  if (quantity < slab.min_qty) return 0;
  return slab.recursive ? Math.floor(quantity / slab.min_qty) * free : free;
}

/** The highest slab `quantity` reaches, or null. Slabs are ascending by min_qty. */
export function slabAt(slabs: SlabData[], quantity: number): SlabData | null {
  let found: SlabData | null = null;
  for (const slab of slabs) if (quantity >= slab.min_qty) found = slab;
  return found;
}

const money = (paise: number) => (paise / 100).toFixed(2);

/** What a slab gives, in words. */
export function rewardText(slab: SlabData): string {
  if (slab.free_qty != null) return `${slab.free_qty} free${slab.recursive ? ` per ${slab.min_qty}` : ''}`;
  if (slab.discount_percent != null) return `${slab.discount_percent}% off`;
  return `${money(Math.round((slab.discount_amount ?? 0) * 100))} off each`;
}

/** The next step up from `quantity`: a higher slab, or the next multiple of a recursive top slab. */
export function nextSlabOf(slabs: SlabData[], quantity: number): NextSlab | null {
  const higher = slabs.find((s) => s.min_qty > quantity);
  const current = slabAt(slabs, quantity);
  if (current && current.recursive && current.free_qty != null) {
    const step = current.min_qty - (quantity % current.min_qty);
    if (!higher || quantity + step < higher.min_qty) {
      return { addQuantity: step, minQty: quantity + step, message: `add ${step} more for ${current.free_qty} more free` };
    }
  }
  if (!higher) return null;
  const add = higher.min_qty - quantity;
  return { addQuantity: add, minQty: higher.min_qty, message: `add ${add} more for ${rewardText(higher)}` };
}

/** Whether the scheme targets the cart line's variant, product or product class. */
export function matches(rule: Pick<SchemeRule, 'targetKind' | 'targetId'>, line: Pick<CartLine, 'variantId' | 'productId' | 'productClassId'>): boolean {
  switch (rule.targetKind) {
    case SchemeTarget.VARIANT:
      return line.variantId === rule.targetId;
    case SchemeTarget.PRODUCT:
      return line.productId === rule.targetId;
    case SchemeTarget.PRODUCT_CLASS:
      return line.productClassId === rule.targetId;
  }
}

/** Whether the scheme is for this customer (its scope: all, towns, routes, customer types, named customers). */
export function inScope(rule: Pick<SchemeRule, 'scope' | 'scopeIds'>, buyer: Buyer): boolean {
  switch (rule.scope) {
    case SchemeScope.ALL:
      return true;
    case SchemeScope.TOWN:
      return buyer.townId !== null && rule.scopeIds.includes(buyer.townId);
    case SchemeScope.ROUTE:
      return buyer.routeId !== null && rule.scopeIds.includes(buyer.routeId);
    case SchemeScope.USER_TYPE:
      return rule.scopeIds.includes(buyer.userType);
    case SchemeScope.CUSTOMERS:
      return rule.scopeIds.includes(buyer.id);
  }
}

const EXPLAIN: Record<SchemeReason, string> = {
  applied: 'applied',
  disabled: 'the scheme is disabled',
  not_started: 'the scheme starts after this day',
  expired: 'the scheme ended before this day',
  customer_not_eligible: 'the scheme is not for this customer',
  no_matching_lines: 'no line of the cart is of its target',
  blocked_by_other_scheme: 'its lines already benefit from a scheme of higher priority, and one of the two does not stack',
  below_first_slab: 'the quantity is below its first slab',
  budget_spent: 'its budget is spent',
  free_variant_unavailable: 'its free variant is not an active variant',
};

/** Evaluates `rules` over the cart of `buyer` on local day `day`. */
export function evaluate(input: { buyer: Buyer; day: string; lines: CartLine[]; rules: SchemeRule[]; freeVariants: Map<number, FreeVariant> }): Evaluation {
  const lines: EvaluatedLine[] = input.lines.map((l) => {
    const grossPaise = l.unitPaise * l.quantity;
    return { ...l, grossPaise, discountPaise: 0, amountPaise: grossPaise, schemeIds: [] };
  });
  const touched = new Set<number>();
  const closed = new Set<number>();
  const free: FreeLine[] = [];
  const ordered = [...input.rules].sort((a, b) => b.priority - a.priority || a.id - b.id);
  const schemes: SchemeOutcome[] = [];

  for (const rule of ordered) {
    const out: SchemeOutcome = {
      schemeId: rule.id, code: rule.code, name: rule.name, applied: false, reason: 'applied', explanation: '',
      quantity: 0, slab: null, discountPaise: 0, freeUnits: 0, amountPaise: 0, next: null,
    };
    const skip = (reason: SchemeReason): void => {
      out.reason = reason;
      out.explanation = EXPLAIN[reason];
      schemes.push(out);
    };
    if (rule.status !== SchemeStatus.ACTIVE) { skip('disabled'); continue; }
    if (input.day < rule.validFrom) { skip('not_started'); continue; }
    if (rule.validTo !== null && input.day > rule.validTo) { skip('expired'); continue; }
    if (!inScope(rule, input.buyer)) { skip('customer_not_eligible'); continue; }
    const matching = lines.filter((l) => matches(rule, l));
    if (matching.length === 0) { skip('no_matching_lines'); continue; }
    const eligible = rule.stackable ? matching.filter((l) => !closed.has(l.variantId)) : matching.some((l) => touched.has(l.variantId)) ? [] : matching;
    out.quantity = eligible.reduce((sum, l) => sum + l.quantity, 0);
    out.next = nextSlabOf(rule.slabs, out.quantity);
    if (eligible.length === 0) { out.quantity = 0; out.next = null; skip('blocked_by_other_scheme'); continue; }
    const slab = slabAt(rule.slabs, out.quantity);
    if (!slab) { skip('below_first_slab'); continue; }
    out.slab = slab;
    let left = rule.budget === null ? Infinity : rule.budget - rule.used;
    if (left <= 0) { skip('budget_spent'); continue; }

    if (rule.kind === SchemeKind.FREE_GOODS) {
      const variantId = slab.free_variant_id!;
      const variant = input.freeVariants.get(variantId);
      if (!variant || !variant.active) { skip('free_variant_unavailable'); continue; }
      let units = freeUnitsOf(slab, out.quantity);
      if (rule.budgetKind === SchemeBudgetKind.UNITS) units = Math.min(units, left);
      else if (rule.budgetKind === SchemeBudgetKind.AMOUNT && variant.unitPaise > 0) units = Math.min(units, Math.floor(left / variant.unitPaise));
      if (units <= 0) { skip('budget_spent'); continue; }
      out.freeUnits = units;
      out.amountPaise = units * variant.unitPaise;
      free.push({ variantId, quantity: units, schemeId: rule.id });
    } else {
      for (const line of eligible) {
        let d = slab.discount_percent != null
          ? percentOf(line.amountPaise, Math.round(slab.discount_percent * 100))
          : Math.min(Math.round((slab.discount_amount ?? 0) * 100) * line.quantity, line.amountPaise);
        d = Math.min(d, left);
        if (d <= 0) continue;
        left -= d;
        line.discountPaise += d;
        line.amountPaise -= d;
        line.schemeIds.push(rule.id);
        out.discountPaise += d;
      }
      out.amountPaise = out.discountPaise;
      if (out.discountPaise === 0 && left <= 0) { skip('budget_spent'); continue; }
    }
    for (const line of eligible) {
      touched.add(line.variantId);
      if (!rule.stackable) closed.add(line.variantId);
    }
    out.applied = true;
    out.explanation = `slab from ${slab.min_qty}: ${rewardText(slab)}`;
    schemes.push(out);
  }

  const grossPaise = lines.reduce((s, l) => s + l.grossPaise, 0);
  const discountPaise = lines.reduce((s, l) => s + l.discountPaise, 0);
  return { lines, free, grossPaise, discountPaise, totalPaise: grossPaise - discountPaise, schemes };
}
