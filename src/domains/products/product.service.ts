import type { RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { entityList, equalTo, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { ProductClass } from '../masters/product-class.entity';
import { assignableMaster } from '../masters/assignable-master';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { productReads, type ProductRead } from './product-read';
import { activeStatus, checkVariant, hsnCode, MAX_PACK_COUNT, MAX_UNIT_QUANTITY, type CheckedVariant, type VariantFields } from './product-rules';
import { sortable } from '../../lists/sort';
import { recordManualPrices } from './price.service';

/** Filters of the product list. */
export interface ProductFilter {
  /** Matches the product name. */
  search?: string;
  status?: number;
  /** Only products of this class (one of the workspace's, else 400). */
  productClassId?: number;
}

/** A variant given with a new product, or added to one. */
export type VariantInput = VariantFields & { variantName: string; itemSkuCode: string; mrp: number; sp: number };

/** A new product, with its variants. */
export interface CreateProductInput {
  productName: string;
  productClassId: number;
  productHsn?: string;
  productColorCode?: string;
  productDescription?: string;
  productImage?: string | null;
  variants?: VariantInput[];
}

/** A change to a product: omitted fields stay; `productImage: null` removes the image. */
export interface UpdateProductInput {
  productName?: string;
  productClassId?: number;
  productHsn?: string;
  productColorCode?: string;
  productDescription?: string;
  productImage?: string | null;
  status?: number;
}

/** A change to a variant: omitted fields stay. */
export type UpdateVariantInput = VariantFields & { status?: number };

export { MAX_PACK_COUNT, MAX_UNIT_QUANTITY };

/** Most variants one product may be created with. */
export const MAX_VARIANTS_PER_PRODUCT = 100;

/** The product list: newest first unless sorted, searched by name (each product's class and variants are read after the page). */
export const PRODUCT_SORT = sortable<keyof Product & string>({
  name: 'Product',
  fields: { created_at: 'createdAt', product_name: 'name', status: 'status', id: 'id' },
  default: '-created_at',
});
const PRODUCT_LIST = entityList({
  entity: Product,
  sort: PRODUCT_SORT,
  searchIn: ['name'],
});

/** The product catalogue of the caller's workspace. */
export class ProductService {
  /** Newest first, with class and variants. */
  async list(ctx: RequestContext, filter: ProductFilter, pageRequest: PageRequest): Promise<Paginated<ProductRead>> {
    const where = equalTo<Product, ProductFilter>(filter, ['status']);
    if (filter.productClassId != null) {
      await this.productClass(ctx, filter.productClassId);
      Object.assign(where, { productClass: filter.productClassId });
    }
    const page = await readPage(ctx.em, PRODUCT_LIST, where, { ...pageRequest, search: filter.search });
    return { ...page, items: await productReads(ctx.em, page.items) };
  }

  /** One product with class and variants, or 404. */
  async get(ctx: RequestContext, id: number): Promise<ProductRead> {
    const [product] = await productReads(ctx.em, await findRows(ctx.em, Product, { id }));
    if (!product) throw new NotFoundError('Product', id);
    return product;
  }

  /** Admin only. The class must be one of the workspace's; SKU codes are unique in the workspace (409). */
  async create(ctx: RequestContext, input: CreateProductInput): Promise<ProductRead> {
    ctx.requireAdminOrKey();
    const data = {
      name: rules.requiredText('productName', input.productName, 200),
      hsn: hsnCode(input.productHsn),
      colorCode: input.productColorCode == null ? '#000000' : rules.hexColour('productColorCode', input.productColorCode),
      description: rules.optionalText('productDescription', input.productDescription, 5000),
      image: input.productImage ? rules.httpUrl('productImage', input.productImage) : null,
    };
    const variants = this.variants(input.variants ?? []);
    const productClass = await assignableMaster(ctx.em, ProductClass, input.productClassId, { field: 'productClassId', label: 'product class' });
    await this.assertSkusFree(ctx, variants.map((v) => v.itemSkuCode));

    const organizationId = ctx.organizationId;
    const { product, created } = await ctx.em.transactional(async (tx) => {
      const product = tx.create(Product, { organizationId, productClass, ...data });
      const created = variants.map((variant) => tx.create(ProductVariant, { organizationId, product, ...variant }));
      await tx.flush();
      // Each variant's first version of its prices, in force from today.
      await recordManualPrices(tx, ctx, created);
      return { product, created };
    });
    return {
      product: rowOf(ctx.em, Product, product),
      productClass: rowOf(ctx.em, ProductClass, productClass),
      variants: created.map((variant) => rowOf(ctx.em, ProductVariant, variant)),
    };
  }

  /**
   * Admin only. Changes the given fields; omitted ones stay. An inactive product stays in old orders
   * and exports but cannot be ordered. Everything is checked before anything changes.
   */
  async update(ctx: RequestContext, id: number, input: UpdateProductInput): Promise<ProductRead> {
    ctx.requireAdminOrKey();
    const product = await ctx.em.findOne(Product, { id });
    if (!product) throw new NotFoundError('Product', id);
    const data: Partial<Pick<Product, 'name' | 'hsn' | 'colorCode' | 'description' | 'image' | 'status' | 'productClass'>> = {};
    if (input.productName != null) data.name = rules.requiredText('productName', input.productName, 200);
    if (input.productHsn != null) data.hsn = hsnCode(input.productHsn);
    if (input.productColorCode != null) data.colorCode = rules.hexColour('productColorCode', input.productColorCode);
    if (input.productDescription != null) data.description = rules.optionalText('productDescription', input.productDescription, 5000);
    if (input.productImage !== undefined) data.image = input.productImage ? rules.httpUrl('productImage', input.productImage) : null;
    if (input.status != null) data.status = activeStatus(input.status);
    if (input.productClassId != null) data.productClass = await assignableMaster(ctx.em, ProductClass, input.productClassId, { field: 'productClassId', label: 'product class', current: product.productClass.id });
    ctx.em.assign(product, data);
    await ctx.em.flush();
    return this.get(ctx, id);
  }

  /** Admin only. Adds a variant to a product; its SKU code must be free in the workspace (409). */
  async addVariant(ctx: RequestContext, productId: number, input: VariantInput): Promise<Row<ProductVariant>> {
    ctx.requireAdminOrKey();
    const product = await ctx.em.findOne(Product, { id: productId });
    if (!product) throw new NotFoundError('Product', productId);
    const variant = checkVariant('', input);
    const count = await ctx.em.count(ProductVariant, { product: productId });
    if (count >= MAX_VARIANTS_PER_PRODUCT) throw new ConflictError(`A product has at most ${MAX_VARIANTS_PER_PRODUCT} variants`);
    await this.assertSkusFree(ctx, [variant.itemSkuCode]);
    const created = await ctx.em.transactional(async (tx) => {
      const created = tx.create(ProductVariant, { organizationId: ctx.organizationId, product, ...variant });
      await tx.flush();
      await recordManualPrices(tx, ctx, [created]);
      return created;
    });
    return rowOf(ctx.em, ProductVariant, created);
  }

  /**
   * Admin only. Changes the given fields of one of a product's variants; omitted ones stay. A new
   * price applies to orders placed after it (order lines keep the price they were placed at), and
   * is recorded in the price history as a version in force from today.
   */
  async updateVariant(ctx: RequestContext, productId: number, variantId: number, input: UpdateVariantInput): Promise<Row<ProductVariant>> {
    ctx.requireAdminOrKey();
    const variant = await ctx.em.findOne(ProductVariant, { id: variantId, product: productId });
    if (!variant) throw new NotFoundError('ProductVariant', variantId);
    const checked = checkVariant('', input, variant as CheckedVariant);
    const status = input.status == null ? variant.status : activeStatus(input.status);
    if (checked.itemSkuCode !== variant.itemSkuCode) await this.assertSkusFree(ctx, [checked.itemSkuCode]);
    const repriced = checked.sp !== variant.sp || checked.mrp !== variant.mrp;
    await ctx.em.transactional(async (tx) => {
      tx.assign(variant, { ...checked, status });
      await tx.flush();
      // A price edit is a version in force from today: the history stays complete.
      if (repriced) await recordManualPrices(tx, ctx, [variant]);
    });
    return rowOf(ctx.em, ProductVariant, variant);
  }

  /** One of the workspace's product classes, or a 400 naming productClassId. */
  private async productClass(ctx: RequestContext, id: number): Promise<ProductClass> {
    const productClass = await ctx.em.findOne(ProductClass, { id });
    if (!productClass) throw new ValidationError('productClassId', 'does not name a product class of this workspace');
    return productClass;
  }

  private variants(inputs: VariantInput[]): CheckedVariant[] {
    if (inputs.length > MAX_VARIANTS_PER_PRODUCT) {
      throw new ValidationError('variants', `must have at most ${MAX_VARIANTS_PER_PRODUCT} items`);
    }
    const seen = new Map<string, number>();
    return inputs.map((v, i) => {
      const at = `variants[${i}]`;
      const variant = checkVariant(at, v);
      const key = variant.itemSkuCode;
      const first = seen.get(key);
      if (first !== undefined) throw new ValidationError(`${at}.itemSkuCode`, `repeats the SKU code of variants[${first}]`);
      seen.set(key, i);
      return variant;
    });
  }

  private async assertSkusFree(ctx: RequestContext, skus: string[]): Promise<void> {
    if (skus.length === 0) return;
    const taken = await ctx.em.find(ProductVariant, { itemSkuCode: { $in: skus } }, { fields: ['itemSkuCode'] });
    if (taken.length > 0) throw new ConflictError(`SKU code ${taken[0].itemSkuCode} is already used in this workspace`);
  }
}
