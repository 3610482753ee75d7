import { Type } from '@sinclair/typebox';
import type { SecondarySaleRead } from '../../src/domains/secondary-sales/secondary-sale-read';
import { SecondarySaleSource } from '../../src/domains/secondary-sales/secondary-sale.entity';
import type { SecondaryStockRow } from '../../src/domains/secondary-sales/secondary-stock';
import { Nullable, Timestamp } from '../schemas';

export const SECONDARY_SALE_SOURCE_TEXT = `${SecondarySaleSource.DISTRIBUTOR} the distributor, ${SecondarySaleSource.FIELD} a field employee or admin, ${SecondarySaleSource.API} an API key`;

/** A secondary sale with its lines. */
export const SecondarySaleBody = Type.Object({
  id: Type.Integer(),
  client_ref: Nullable(Type.String()),
  distributor_id: Type.Integer(),
  retailer_id: Type.Integer(),
  invoice_no: Type.String(),
  invoice_date: Type.String({ description: 'YYYY-MM-DD' }),
  source: Type.Integer({ description: SECONDARY_SALE_SOURCE_TEXT }),
  booked_by_user_id: Nullable(Type.Integer({ description: 'Who booked it; null: an API key' })),
  visit_id: Nullable(Type.Integer({ description: 'The field visit it was taken at' })),
  items_count: Type.Integer(),
  gross_amount: Type.Number({ description: 'Σ quantity × rate' }),
  scheme_discount: Type.Number({ description: "Σ the lines' discount_amount" }),
  net_amount: Type.Number({ description: 'gross_amount − scheme_discount' }),
  created_at: Timestamp,
  items: Type.Array(
    Type.Object({
      product_variant_id: Type.Integer(),
      quantity: Type.Integer(),
      free_quantity: Type.Integer(),
      rate: Type.Number(),
      discount_amount: Type.Number(),
      amount: Type.Number({ description: 'quantity × rate − discount_amount' }),
      scheme_id: Nullable(Type.Integer()),
    }),
  ),
});

/** A secondary sale as REST shows it. */
export function presentSecondarySale({ sale: s, lines }: SecondarySaleRead) {
  return {
    id: s.id,
    client_ref: s.clientRef,
    distributor_id: s.distributor,
    retailer_id: s.retailer,
    invoice_no: s.invoiceNo,
    invoice_date: s.invoiceDate,
    source: s.source,
    booked_by_user_id: s.bookedBy,
    visit_id: s.visit,
    items_count: s.itemsCount,
    gross_amount: s.grossAmount,
    scheme_discount: s.schemeDiscount,
    net_amount: s.netAmount,
    created_at: s.createdAt,
    items: lines.map((l) => ({
      product_variant_id: l.variant,
      quantity: l.quantity,
      free_quantity: l.freeQuantity,
      rate: l.rate,
      discount_amount: l.discountAmount,
      amount: l.amount,
      scheme_id: l.schemeId,
    })),
  };
}

/** A distributor's sell-in against sell-out per variant. */
export const SecondaryStockBody = Type.Object({
  distributor_id: Type.Integer(),
  date_to: Type.String({ description: 'YYYY-MM-DD' }),
  rows: Type.Array(
    Type.Object({
      product_variant_id: Type.Integer(),
      product_name: Type.String(),
      variant_name: Type.String(),
      item_sku_code: Type.String(),
      sell_in: Type.Integer({ description: 'Units of delivered primary orders to the distributor (free lines included)' }),
      sell_out: Type.Integer({ description: 'Units of their secondary sales: quantity + free_quantity' }),
      implied_stock: Type.Integer({ description: 'sell_in − sell_out' }),
      negative: Type.Boolean({ description: 'More went out than came in' }),
    }),
  ),
});

/** The stock view as REST shows it. */
export function presentSecondaryStock(v: { distributorId: number; dateTo: string; rows: SecondaryStockRow[] }) {
  return {
    distributor_id: v.distributorId,
    date_to: v.dateTo,
    rows: v.rows.map((r) => ({
      product_variant_id: r.productVariantId,
      product_name: r.productName,
      variant_name: r.variantName,
      item_sku_code: r.itemSkuCode,
      sell_in: r.sellIn,
      sell_out: r.sellOut,
      implied_stock: r.impliedStock,
      negative: r.negative,
    })),
  };
}
