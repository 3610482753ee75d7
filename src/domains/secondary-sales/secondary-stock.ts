import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { OrderStatus } from '../orders/order.entity';

/** One variant of a distributor's sell-in against sell-out. */
export interface SecondaryStockRow {
  productVariantId: number;
  productName: string;
  variantName: string;
  itemSkuCode: string;
  sellIn: number;
  sellOut: number;
  impliedStock: number;
  negative: boolean;
}

/**
 * A distributor's implied stock per variant up to `dateTo`, in one tenant-scoped statement:
 * sell-in is every line (free lines included) of the primary orders delivered to the distributor
 * (status Delivered, not cancelled, ordered on or before dateTo); sell-out is quantity + free
 * quantity of their secondary sales invoiced on or before dateTo. Variants with neither are left out.
 */
export async function secondaryStock(em: EntityManager, organizationId: number, distributorId: number, dateTo: string): Promise<SecondaryStockRow[]> {
  const o = tenantSql(organizationId, 'o');
  const s = tenantSql(organizationId, 's');
  const v = tenantSql(organizationId, 'v');
  const rows = await executeSql<{ product_variant_id: number; product_name: string; variant_name: string; item_sku_code: string; sell_in: string; sell_out: string }>(
    em,
    sql`with sell_in as (
          select oi.product_variant_id, sum(oi.quantity) as qty
            from sales_order o
            ${o.join('order_item', 'oi', 'oi.order_id = o.id')}
           where ${o.owns()} and o.customer_id = ${distributorId} and o.status = ${OrderStatus.DELIVERED}
             and o.cancelled_at is null and o.order_date <= ${dateTo}
           group by oi.product_variant_id),
        sell_out as (
          select l.product_variant_id, sum(l.quantity + l.free_quantity) as qty
            from secondary_sale s
            ${s.join('secondary_sale_line', 'l', 'l.secondary_sale_id = s.id')}
           where ${s.owns()} and s.distributor_id = ${distributorId} and s.invoice_date <= ${dateTo}
           group by l.product_variant_id)
        select v.id as product_variant_id, p.name as product_name, v.variant_name, v.item_sku_code,
               coalesce(i.qty, 0) as sell_in, coalesce(x.qty, 0) as sell_out
          from product_variant v
          ${v.join('product', 'p', 'p.id = v.product_id')}
          left join sell_in i on i.product_variant_id = v.id
          left join sell_out x on x.product_variant_id = v.id
         where ${v.owns()} and (i.qty is not null or x.qty is not null)
         order by lower(p.name), p.id, v.id`,
  );
  return rows.map((r) => {
    const sellIn = Number(r.sell_in);
    const sellOut = Number(r.sell_out);
    return {
      productVariantId: r.product_variant_id,
      productName: r.product_name,
      variantName: r.variant_name,
      itemSkuCode: r.item_sku_code,
      sellIn,
      sellOut,
      impliedStock: sellIn - sellOut,
      negative: sellIn - sellOut < 0,
    };
  });
}
