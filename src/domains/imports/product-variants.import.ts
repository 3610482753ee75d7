import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, tenantSql } from '../../db/tenant-sql';
import { executeBound } from './bound-sql';
import { checkVariant, hsnCode, type CheckedVariant } from '../products/product-rules';
import { MAX_VARIANTS_PER_PRODUCT } from '../products/product.service';
import * as rules from '../../validation/rules';
import { PriceSource } from '../products/variant-price.entity';
import { recordCurrentPrices } from '../products/variant-prices';
import { workspaceToday } from '../workspace/local-day';
import { CellReader } from './cells';
import { defineImportKind, repeatedKeys, ruleError, type NumberedRow, type RowError, type RowFailure } from './import-kind';

/** A variant row: the variant (checked by the products' own rules) and the product it belongs to. */
export interface VariantRow {
  productName: string;
  /** Used only when the product is new. */
  productClass: string;
  productHsn: string;
  variant: CheckedVariant;
  status: number;
}

/** Rule field → column. */
const FIELDS: Record<string, string> = {
  variantName: 'variant_name', itemSkuCode: 'item_sku_code', mrp: 'mrp', sp: 'sp', variantSize: 'variant_size',
  variantQuantity: 'variant_quantity', containerQuantity: 'container_quantity', unitQuantity: 'unit_quantity',
  productHsn: 'product_hsn', productName: 'product_name', status: 'status',
};

const STATUS = { active: 1, inactive: 0 };

/**
 * Product variants, keyed by item_sku_code: a known SKU is updated (when anything differs), a new
 * one is added to the product the row names by product_name (matched without regard to case). A
 * product that does not exist yet is created, in the class product_class names (required then;
 * ignored for existing products, whose fields an import never changes). A SKU stays with its
 * product: a row naming another product fails. Prices, sizes and packs follow the products' rules.
 */
export const productVariantsImport = defineImportKind<VariantRow>({
  kind: 'product-variants',
  title: 'Product variants',
  keyDescription: 'item_sku_code',
  columns: [
    { header: 'product_name', required: true, example: 'Toned Milk', description: 'The product (matched without regard to case); created when missing', width: 24 },
    { header: 'product_class', required: false, example: 'Milk', description: 'A product class name: required when the product is new', width: 16 },
    { header: 'product_hsn', required: false, example: '0401', description: 'HSN code of a new product: 4 to 8 digits', width: 12 },
    { header: 'variant_name', required: true, example: 'Toned Milk 500 ml', description: 'Up to 200 characters', width: 24 },
    { header: 'item_sku_code', required: true, example: 'TM-500', description: 'The key: unique in the workspace, up to 64 characters', width: 16 },
    { header: 'mrp', required: true, example: 30, description: 'Maximum retail price', width: 10 },
    { header: 'sp', required: true, example: 28.5, description: 'Selling price, at most mrp', width: 10 },
    { header: 'variant_size', required: false, example: '500 ml', description: 'Up to 50 characters', width: 12 },
    { header: 'variant_quantity', required: false, example: 1, description: 'Pieces per pack, 1 to 1,000,000 (default 1)', width: 10 },
    { header: 'container_quantity', required: false, example: 12, description: 'Packs per container, 1 to 1,000,000 (default 1)', width: 10 },
    { header: 'unit_quantity', required: false, example: 0.5, description: "Of the class's unit per piece, > 0 (default 1)", width: 10 },
    { header: 'status', required: false, example: 1, description: '1 active (default), 0 inactive', width: 8 },
  ],

  parse(values) {
    const c = new CellReader(values);
    const mrp = c.number('mrp');
    const sp = c.number('sp');
    const variantQuantity = c.integer('variant_quantity');
    const containerQuantity = c.integer('container_quantity');
    const unitQuantity = c.number('unit_quantity');
    const status = c.code('status', STATUS) ?? 1;
    let productName = '';
    let productHsn = '';
    let productClass = '';
    try {
      productName = rules.requiredText('productName', values.product_name, 200);
      productClass = rules.optionalText('productClass', values.product_class, 120);
      productHsn = hsnCode(values.product_hsn);
    } catch (err) {
      c.errors.push(ruleError(err, { ...FIELDS, productClass: 'product_class' }));
    }
    if (c.errors.length > 0) return c.errors;
    try {
      const variant = checkVariant('', {
        variantName: values.variant_name, itemSkuCode: values.item_sku_code, mrp, sp,
        variantSize: c.text('variant_size'), variantQuantity, containerQuantity, unitQuantity,
      });
      return { productName, productClass, productHsn, variant, status };
    } catch (err) {
      return [ruleError(err, FIELDS)] satisfies RowError[];
    }
  },

  async check(em, ctx, rows) {
    const failures = repeatedKeys(rows, (r) => r.variant.itemSkuCode, 'item_sku_code');
    const t = tenantSql(ctx.organizationId, 'v');
    const skus = JSON.stringify(rows.map((r) => r.row.variant.itemSkuCode));
    const known = await executeBound<{ sku: string; product_id: number; product_name: string }>(
      em,
      sql`select v.item_sku_code as sku, v.product_id, p.name as product_name from product_variant v ${t.join('product', 'p', 'p.id = v.product_id')}
           where ${t.owns()} and v.item_sku_code in (select jsonb_array_elements_text(${skus}::jsonb))`,
    );
    const variantOf = new Map(known.map((k) => [k.sku, k]));
    const products = await productsByName(em, ctx.organizationId, rows.map((r) => r.row.productName));
    const pc = tenantSql(ctx.organizationId, 'c');
    const classNames = JSON.stringify([...new Set(rows.map((r) => r.row.productClass.toLowerCase()).filter((n) => n !== ''))]);
    const classes = new Set(
      (await executeBound<{ k: string }>(em, sql`select lower(c.name) as k from product_class c where ${pc.owns()} and lower(c.name) in (select jsonb_array_elements_text(${classNames}::jsonb))`)).map((r) => r.k),
    );
    const counts = await variantCounts(em, ctx.organizationId, [...products.values()].flat().map((p) => p.id));
    const classOf = newProductClasses(rows);
    const added = new Map<string, number>();
    for (const { rowNumber, row } of rows) {
      const fail = (field: string, message: string) => failures.push({ rowNumber, field, message });
      const key = row.productName.toLowerCase();
      const existing = variantOf.get(row.variant.itemSkuCode);
      if (existing) {
        if (existing.product_name.toLowerCase() !== key) fail('product_name', `item_sku_code ${row.variant.itemSkuCode} belongs to product "${existing.product_name}": an import does not move a variant to another product`);
        continue;
      }
      const named = products.get(key) ?? [];
      if (named.length > 1) fail('product_name', `names ${named.length} products: give them different names first`);
      else if (named.length === 0 && !classOf.has(key)) fail('product_class', 'is required for a new product (on one of its rows at least)');
      else if (named.length === 0 && !classes.has(classOf.get(key)!)) fail('product_class', 'does not name a product class of this workspace');
      else {
        const n = (added.get(key) ?? (named.length === 1 ? (counts.get(named[0].id) ?? 0) : 0)) + 1;
        added.set(key, n);
        if (n > MAX_VARIANTS_PER_PRODUCT) fail('item_sku_code', `would give product "${row.productName}" more than ${MAX_VARIANTS_PER_PRODUCT} variants`);
      }
    }
    return failures satisfies RowFailure[];
  },

  async write(tx, ctx, rows) {
    const org = ctx.organizationId;
    const products = await productsByName(tx, org, rows.map((r) => r.row.productName));
    const classOf = newProductClasses(rows);
    const missing = new Map<string, VariantRow>();
    for (const { row } of rows) {
      const key = row.productName.toLowerCase();
      if (!products.has(key) && !missing.has(key)) missing.set(key, row);
    }
    if (missing.size > 0) {
      const news = JSON.stringify([...missing].map(([key, r]) => ({ name: r.productName, class: classOf.get(key) ?? '', hsn: r.productHsn })));
      const created = await executeBound<{ id: number; k: string }>(
        tx,
        sql`insert into product (organization_id, name, product_class_id, hsn, color_code, description, status)
             select ${org}, x.name, c.id, x.hsn, '#000000', '', 1
               from jsonb_to_recordset(${news}::jsonb) as x(name text, class text, hsn text)
               join product_class c on c.organization_id = ${org} and lower(c.name) = x.class
             returning id, lower(name) as k`,
      );
      for (const p of created) products.set(p.k, [{ id: p.id }]);
    }
    const data = JSON.stringify(
      rows.map(({ row: { variant: v, productName, status } }) => [
        products.get(productName.toLowerCase())![0].id, v.variantName, v.itemSkuCode, v.mrp, v.sp, v.variantSize, v.variantQuantity, v.containerQuantity, v.unitQuantity, status,
      ]),
    );
    // One statement: new SKUs inserted, known ones updated only where a value differs (xmax = 0 marks an insert).
    const written = await executeBound<{ inserted: boolean }>(
      tx,
      sql`insert into product_variant as pv (organization_id, product_id, variant_name, item_sku_code, mrp, sp, variant_size, variant_quantity, container_quantity, unit_quantity, status)
           select ${org}, (x->>0)::int, x->>1, x->>2, (x->>3)::numeric, (x->>4)::numeric, x->>5, (x->>6)::int, (x->>7)::int, (x->>8)::numeric, (x->>9)::smallint
             from jsonb_array_elements(${data}::jsonb) as x
           on conflict (organization_id, item_sku_code) do update set
             variant_name = excluded.variant_name, mrp = excluded.mrp, sp = excluded.sp, variant_size = excluded.variant_size,
             variant_quantity = excluded.variant_quantity, container_quantity = excluded.container_quantity,
             unit_quantity = excluded.unit_quantity, status = excluded.status, updated_at = now()
           where (pv.variant_name, pv.mrp, pv.sp, pv.variant_size, pv.variant_quantity, pv.container_quantity, pv.unit_quantity, pv.status)
             is distinct from (excluded.variant_name, excluded.mrp, excluded.sp, excluded.variant_size, excluded.variant_quantity, excluded.container_quantity, excluded.unit_quantity, excluded.status)
           returning (xmax = 0) as inserted`,
    );
    // The prices set here join the price history as versions in force from today (only where they changed).
    await recordCurrentPrices(tx, ctx, rows.map((r) => r.row.variant.itemSkuCode), PriceSource.IMPORT, await workspaceToday(tx, org), ctx.importJobId ?? null);
    const inserted = written.filter((w) => w.inserted).length;
    return { inserted, updated: written.length - inserted, unchanged: rows.length - written.length };
  },
});

/** The class of each product name (lower-cased): the first product_class given on its rows (lower-cased). */
function newProductClasses(rows: ReadonlyArray<NumberedRow<VariantRow>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const { row } of rows) {
    const key = row.productName.toLowerCase();
    if (row.productClass !== '' && !out.has(key)) out.set(key, row.productClass.toLowerCase());
  }
  return out;
}

/** The workspace's products by lower-cased name (a name may be shared). */
async function productsByName(em: EntityManager, organizationId: number, names: string[]): Promise<Map<string, Array<{ id: number }>>> {
  const t = tenantSql(organizationId, 'p');
  const keys = JSON.stringify([...new Set(names.map((n) => n.toLowerCase()))]);
  const found = await executeBound<{ id: number; k: string }>(em, sql`select p.id, lower(p.name) as k from product p where ${t.owns()} and lower(p.name) in (select jsonb_array_elements_text(${keys}::jsonb))`);
  const out = new Map<string, Array<{ id: number }>>();
  for (const p of found) out.set(p.k, [...(out.get(p.k) ?? []), { id: p.id }]);
  return out;
}

/** Variants per product. */
async function variantCounts(em: EntityManager, organizationId: number, productIds: number[]): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const t = tenantSql(organizationId, 'v');
  const found = await executeBound<{ product_id: number; n: number }>(
    em,
    sql`select v.product_id, count(*)::int as n from product_variant v where ${t.owns()} and v.product_id = any(${`{${productIds.join(',')}}`}::int[]) group by v.product_id`,
  );
  return new Map(found.map((r) => [r.product_id, r.n]));
}

export type { NumberedRow };
