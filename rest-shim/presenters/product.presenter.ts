import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { ProductRead } from '../../src/domains/products/product-read';
import type { ProductVariant } from '../../src/domains/products/product-variant.entity';
import { Nullable } from '../schemas';

/** The ProductVariant resource. */
export const VariantBody = Type.Object({
  id: Type.Integer(),
  variant_name: Type.String(),
  item_sku_code: Type.String(),
  mrp: Type.Number(),
  sp: Type.Number(),
  variant_size: Type.String(),
  variant_quantity: Type.Integer(),
  container_quantity: Type.Integer(),
  unit_quantity: Type.Number(),
  status: Type.Integer(),
});

/** The Product resource with its class and variants. */
export const ProductBody = Type.Object({
  id: Type.Integer(),
  product_name: Type.String(),
  product_class_id: Type.Integer(),
  product_hsn: Type.String(),
  product_color_code: Type.String(),
  product_description: Type.String(),
  product_image: Nullable(Type.String()),
  status: Type.Integer(),
  ProductClass: Type.Object({ id: Type.Integer(), product_class: Type.String() }),
  ProductVariants: Type.Array(VariantBody),
});

/** A variant in its REST shape. */
export function presentVariant(v: Row<ProductVariant>) {
  return {
    id: v.id,
    variant_name: v.variantName,
    item_sku_code: v.itemSkuCode,
    mrp: v.mrp,
    sp: v.sp,
    variant_size: v.variantSize,
    variant_quantity: v.variantQuantity,
    container_quantity: v.containerQuantity,
    unit_quantity: v.unitQuantity,
    status: v.status,
  };
}

/** A product in its REST shape, with its class and variants. */
export function presentProduct({ product: p, productClass, variants }: ProductRead) {
  return {
    id: p.id,
    product_name: p.name,
    product_class_id: p.productClass,
    product_hsn: p.hsn,
    product_color_code: p.colorCode,
    product_description: p.description,
    product_image: p.image,
    status: p.status,
    ProductClass: { id: productClass.id, product_class: productClass.name },
    ProductVariants: variants.map(presentVariant),
  };
}
