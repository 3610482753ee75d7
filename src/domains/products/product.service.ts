import type { RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/app-error';
import { findRows, rowOf } from '../../db/entity-rows';
import { entityList, equalTo, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { ProductClass } from '../masters/product-class.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { productReads, type ProductRead } from './product-read';

/** Filters of the product list. */
export interface ProductFilter {
  /** Matches the product name. */
  search?: string;
  status?: number;
}

/** A variant given with a new product. */
export interface VariantInput {
  variantName: string;
  itemSkuCode: string;
  mrp: number;
  sp: number;
  variantSize?: string;
  variantQuantity?: number;
  containerQuantity?: number;
  /** How much of the class's unit one piece holds; default 1. */
  unitQuantity?: number | null;
}

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

/** Largest variant_quantity or container_quantity. */
export const MAX_PACK_COUNT = 1_000_000;

/** Largest unit_quantity (in the class's unit, at most three decimals). */
export const MAX_UNIT_QUANTITY = 1_000_000;

/** Most variants one product may be created with. */
export const MAX_VARIANTS_PER_PRODUCT = 100;

/** The product list: newest first, searched by name (each product's class and variants are read after the page). */
const PRODUCT_LIST = entityList({
  entity: Product,
  orderBy: { createdAt: 'desc', id: 'desc' },
  searchIn: ['name'],
});

/** The product catalogue of the caller's workspace. */
export class ProductService {
  /** Newest first, with class and variants. */
  async list(ctx: RequestContext, filter: ProductFilter, pageRequest: PageRequest): Promise<Paginated<ProductRead>> {
    const page = await readPage(ctx.em, PRODUCT_LIST, equalTo<Product, ProductFilter>(filter, ['status']), { ...pageRequest, search: filter.search });
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
      hsn: this.hsn(input.productHsn),
      colorCode: input.productColorCode == null ? '#000000' : rules.hexColour('productColorCode', input.productColorCode),
      description: rules.optionalText('productDescription', input.productDescription, 5000),
      image: input.productImage ? rules.httpUrl('productImage', input.productImage) : null,
    };
    const variants = this.variants(input.variants ?? []);
    const productClass = await ctx.em.findOne(ProductClass, { id: input.productClassId });
    if (!productClass) throw new ValidationError('productClassId', 'does not name a product class of this workspace');
    await this.assertSkusFree(ctx, variants.map((v) => v.itemSkuCode));

    const organizationId = ctx.organizationId;
    const product = ctx.em.create(Product, { organizationId, productClass, ...data });
    const created = variants.map((variant) => ctx.em.create(ProductVariant, { organizationId, product, ...variant }));
    await ctx.em.flush();
    return {
      product: rowOf(ctx.em, Product, product),
      productClass: rowOf(ctx.em, ProductClass, productClass),
      variants: created.map((variant) => rowOf(ctx.em, ProductVariant, variant)),
    };
  }

  private hsn(value: string | undefined): string {
    const text = (value ?? '').trim();
    if (text !== '' && !/^\d{4,8}$/.test(text)) throw new ValidationError('productHsn', 'must be 4 to 8 digits');
    return text;
  }

  private variants(inputs: VariantInput[]): VariantInput[] {
    if (inputs.length > MAX_VARIANTS_PER_PRODUCT) {
      throw new ValidationError('variants', `must have at most ${MAX_VARIANTS_PER_PRODUCT} items`);
    }
    const seen = new Map<string, number>();
    return inputs.map((v, i) => {
      const at = `variants[${i}]`;
      const variant = {
        variantName: rules.requiredText(`${at}.variantName`, v.variantName, 200),
        itemSkuCode: rules.requiredText(`${at}.itemSkuCode`, v.itemSkuCode, 64),
        mrp: rules.money(`${at}.mrp`, v.mrp),
        sp: rules.money(`${at}.sp`, v.sp),
        variantSize: rules.optionalText(`${at}.variantSize`, v.variantSize, 50),
        variantQuantity: this.count(`${at}.variantQuantity`, v.variantQuantity),
        containerQuantity: this.count(`${at}.containerQuantity`, v.containerQuantity),
        unitQuantity: v.unitQuantity == null ? 1 : rules.positiveQuantity(`${at}.unitQuantity`, v.unitQuantity, MAX_UNIT_QUANTITY),
      };
      if (variant.sp > variant.mrp) throw new ValidationError(`${at}.sp`, 'must not exceed mrp');
      const key = variant.itemSkuCode;
      const first = seen.get(key);
      if (first !== undefined) throw new ValidationError(`${at}.itemSkuCode`, `repeats the SKU code of variants[${first}]`);
      seen.set(key, i);
      return variant;
    });
  }

  private count(field: string, value: number | undefined): number {
    if (value == null) return 1;
    if (!Number.isInteger(value) || value < 1 || value > MAX_PACK_COUNT) {
      throw new ValidationError(field, `must be an integer from 1 to ${MAX_PACK_COUNT}`);
    }
    return value;
  }

  private async assertSkusFree(ctx: RequestContext, skus: string[]): Promise<void> {
    if (skus.length === 0) return;
    const taken = await ctx.em.find(ProductVariant, { itemSkuCode: { $in: skus } }, { fields: ['itemSkuCode'] });
    if (taken.length > 0) throw new ConflictError(`SKU code ${taken[0].itemSkuCode} is already used in this workspace`);
  }
}
