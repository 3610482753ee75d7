import { ACTIVE_STATUSES, type ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';

/** Largest variant_quantity or container_quantity. */
export const MAX_PACK_COUNT = 1_000_000;

/** Largest unit_quantity (in the class's unit, at most three decimals). */
export const MAX_UNIT_QUANTITY = 1_000_000;

/** A variant's fields as a caller gives them (a new product's, a new variant's or a change's). */
export interface VariantFields {
  variantName?: string;
  itemSkuCode?: string;
  mrp?: number;
  sp?: number;
  variantSize?: string;
  variantQuantity?: number;
  containerQuantity?: number;
  /** How much of the class's unit one piece holds; default 1. */
  unitQuantity?: number | null;
}

/** A variant's checked fields, ready to store. */
export interface CheckedVariant {
  variantName: string;
  itemSkuCode: string;
  mrp: number;
  sp: number;
  variantSize: string;
  variantQuantity: number;
  containerQuantity: number;
  unitQuantity: number;
}

/** `name` under the path `at` ('' for a body's own fields, `variants[2]` for one of a list). */
const fieldAt = (at: string, name: string) => (at === '' ? name : `${at}.${name}`);

/**
 * Checks a variant's fields; fields missing from `v` are taken from `current` (a change to a stored
 * variant) or the defaults (a new one). Selling price at most MRP, whichever of the two changed.
 */
export function checkVariant(at: string, v: VariantFields, current?: CheckedVariant): CheckedVariant {
  const f = (name: string) => fieldAt(at, name);
  const keep = <K extends keyof CheckedVariant>(key: K, given: unknown, check: () => CheckedVariant[K], fallback: CheckedVariant[K]) =>
    given == null ? (current ? current[key] : fallback) : check();
  const variant: CheckedVariant = {
    variantName: current && v.variantName == null ? current.variantName : rules.requiredText(f('variantName'), v.variantName, 200),
    itemSkuCode: current && v.itemSkuCode == null ? current.itemSkuCode : rules.requiredText(f('itemSkuCode'), v.itemSkuCode, 64),
    mrp: current && v.mrp == null ? current.mrp : rules.money(f('mrp'), v.mrp as number),
    sp: current && v.sp == null ? current.sp : rules.money(f('sp'), v.sp as number),
    variantSize: keep('variantSize', v.variantSize, () => rules.optionalText(f('variantSize'), v.variantSize, 50), ''),
    variantQuantity: keep('variantQuantity', v.variantQuantity, () => packCount(f('variantQuantity'), v.variantQuantity!), 1),
    containerQuantity: keep('containerQuantity', v.containerQuantity, () => packCount(f('containerQuantity'), v.containerQuantity!), 1),
    unitQuantity: keep('unitQuantity', v.unitQuantity, () => rules.positiveQuantity(f('unitQuantity'), v.unitQuantity!, MAX_UNIT_QUANTITY), 1),
  };
  if (variant.sp > variant.mrp) throw new ValidationError(f('sp'), 'must not exceed mrp');
  return variant;
}

/** A pack count: an integer from 1 to MAX_PACK_COUNT. */
function packCount(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_PACK_COUNT) {
    throw new ValidationError(field, `must be an integer from 1 to ${MAX_PACK_COUNT}`);
  }
  return value;
}

/** An HSN code: empty, or 4 to 8 digits. */
export function hsnCode(value: string | undefined): string {
  const text = (value ?? '').trim();
  if (text !== '' && !/^\d{4,8}$/.test(text)) throw new ValidationError('productHsn', 'must be 4 to 8 digits');
  return text;
}

/** A status as given: 1 active, 0 inactive. */
export function activeStatus(value: number): ActiveStatus {
  return rules.oneOf('status', value, ACTIVE_STATUSES);
}
