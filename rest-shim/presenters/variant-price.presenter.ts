import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { VariantPrice } from '../../src/domains/products/variant-price.entity';
import type { RateListEntry } from '../../src/domains/products/variant-prices';
import { Nullable, Timestamp } from '../schemas';

const SourceCode = Type.Integer({ description: '1 manual (a product or variant edit, or a scheduled change), 2 import (rate list), 3 opening (the price when the history began)' });

/** A version of a variant's prices. */
export const VariantPriceBody = Type.Object({
  id: Type.Integer(),
  variant_id: Type.Integer(),
  sp: Type.Number({ description: 'Selling price' }),
  mrp: Type.Number(),
  effective_from: Type.String({ description: "YYYY-MM-DD, the workspace's local day it is in force from" }),
  source: SourceCode,
  import_id: Nullable(Type.Integer()),
  created_by_user_id: Nullable(Type.Integer()),
  created_by_api_key_id: Nullable(Type.Integer()),
  created_at: Timestamp,
});

/** One variant's price in force on the rate list's day. */
export const RateListEntryBody = Type.Object({
  variant_id: Type.Integer(),
  product_id: Type.Integer(),
  product_name: Type.String(),
  variant_name: Type.String(),
  item_sku_code: Type.String(),
  variant_status: Type.Integer(),
  sp: Type.Number({ description: 'Selling price in force' }),
  mrp: Type.Number(),
  effective_from: Type.String({ description: 'YYYY-MM-DD: when the version in force began' }),
  price_id: Type.Integer({ description: 'The version in force' }),
  source: SourceCode,
});

/** A version in its REST shape. */
export function presentVariantPrice(p: Row<VariantPrice>) {
  return {
    id: p.id,
    variant_id: p.variant,
    sp: p.sp,
    mrp: p.mrp,
    effective_from: p.effectiveFrom,
    source: p.source,
    import_id: p.importId,
    created_by_user_id: p.createdBy,
    created_by_api_key_id: p.createdByApiKeyId,
    created_at: p.createdAt,
  };
}

/** A rate-list row in its REST shape. */
export function presentRateListEntry(e: RateListEntry) {
  return {
    variant_id: e.variantId,
    product_id: e.productId,
    product_name: e.productName,
    variant_name: e.variantName,
    item_sku_code: e.itemSkuCode,
    variant_status: e.variantStatus,
    sp: e.sp,
    mrp: e.mrp,
    effective_from: e.effectiveFrom,
    price_id: e.priceId,
    source: e.source,
  };
}
