import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, rowsById, type Row } from '../../db/entity-rows';
import { ProductClass } from '../masters/product-class.entity';
import { ProductVariant } from './product-variant.entity';
import type { Product } from './product.entity';

/** A product as REST and GraphQL show it: its row, its class's row and its variants' rows, oldest first. */
export interface ProductRead {
  product: Row<Product>;
  productClass: Row<ProductClass>;
  variants: Array<Row<ProductVariant>>;
}

/** The reads of product rows: their classes and their variants, one statement each (none for no products). */
export async function productReads(em: EntityManager, products: Array<Row<Product>>): Promise<ProductRead[]> {
  if (products.length === 0) return [];
  const [classes, variants] = await Promise.all([
    rowsById(em, ProductClass, products.map((p) => p.productClass)),
    findRows(em, ProductVariant, { product: { $in: products.map((p) => p.id) } }, { orderBy: { id: 'asc' } }),
  ]);
  const variantsOf = new Map<number, Array<Row<ProductVariant>>>(products.map((p) => [p.id, []]));
  for (const variant of variants) variantsOf.get(variant.product)?.push(variant);
  return products.map((product) => ({ product, productClass: classes.get(product.productClass)!, variants: variantsOf.get(product.id)! }));
}
