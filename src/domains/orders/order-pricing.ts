import { ValidationError } from '../../errors/app-error';
import type { ProductVariant } from '../products/product-variant.entity';
import { ActiveStatus } from '../../db/active-status';

/** A requested order line. */
export interface OrderLineInput {
  productVariantId: number;
  quantity: number;
}

/** A priced order line. */
export interface PricedLine {
  variant: ProductVariant;
  quantity: number;
  unitPrice: number;
  amount: number;
}

/** Most lines one order may have, and most units of one line. */
export const MAX_ORDER_LINES = 200;
export const MAX_LINE_QUANTITY = 1_000_000;
/** Largest amount a line or an order total may reach, in paise: what numeric(14,2) holds. */
export const MAX_AMOUNT_PAISE = 99_999_999_999_999;

/** Checks the shape of the lines: non-empty, positive integer quantities, no repeated variant. */
export function validateLines(lines: OrderLineInput[]): void {
  if (lines.length === 0) throw new ValidationError('items', 'must have at least 1 item');
  if (lines.length > MAX_ORDER_LINES) throw new ValidationError('items', `must have at most ${MAX_ORDER_LINES} items`);
  const seen = new Map<number, number>();
  lines.forEach((line, i) => {
    if (!Number.isInteger(line.productVariantId) || line.productVariantId < 1) {
      throw new ValidationError(`items[${i}].productVariantId`, 'must be a positive integer');
    }
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_LINE_QUANTITY) {
      throw new ValidationError(`items[${i}].quantity`, `must be an integer from 1 to ${MAX_LINE_QUANTITY}`);
    }
    const first = seen.get(line.productVariantId);
    if (first !== undefined) {
      throw new ValidationError(`items[${i}].productVariantId`, `repeats the variant of items[${first}]`);
    }
    seen.set(line.productVariantId, i);
  });
}

/**
 * Prices each line at the variant's selling price: amount = quantity × sp, computed in whole
 * paise so totals never pick up floating-point dust. Every variant must be given and sellable.
 */
export function priceLines(lines: OrderLineInput[], variants: Map<number, ProductVariant>): { lines: PricedLine[]; total: number } {
  let totalPaise = 0;
  const priced = lines.map((line, i) => {
    const variant = variants.get(line.productVariantId);
    if (!variant || variant.status !== ActiveStatus.ACTIVE || variant.product.status !== ActiveStatus.ACTIVE) {
      throw new ValidationError(`items[${i}].productVariantId`, 'does not name an active product variant of this workspace');
    }
    const unitPaise = Math.round(variant.sp * 100);
    const amountPaise = unitPaise * line.quantity;
    totalPaise += amountPaise;
    if (amountPaise > MAX_AMOUNT_PAISE || totalPaise > MAX_AMOUNT_PAISE) {
      throw new ValidationError(`items[${i}].quantity`, `makes the order amount exceed ${MAX_AMOUNT_PAISE / 100}`);
    }
    return { variant, quantity: line.quantity, unitPrice: unitPaise / 100, amount: amountPaise / 100 };
  });
  return { lines: priced, total: totalPaise / 100 };
}

/** The same lines priced at 0 (goods given free of cost): quantities and variants kept, amounts and total 0. */
export function atNoCharge(priced: { lines: PricedLine[]; total: number }): { lines: PricedLine[]; total: number } {
  return { lines: priced.lines.map((line) => ({ ...line, unitPrice: 0, amount: 0 })), total: 0 };
}
