import { expect } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createApiKey, createProduct, createUser, createWorkspace, placeOrder, seedCatalog, unique, type Workspace } from './fixtures';
import type { TestApp } from './test-app';

/**
 * A small workspace for the sales report, whose figures the tests compute by hand:
 *
 * | order | booked by | customer (town, route) | order_date | lines (quantity × price)          | value |
 * |-------|-----------|------------------------|------------|-----------------------------------|-------|
 * | o1    | e1        | d1 (T1, R1), unit PU   | 2026-03-02 | milk 500 ml 2 × 28.50, curd 1 × 40 | 97    |
 * | o2    | e1        | r1 (T2, no route)      | 2026-03-04 | milk 1 l 1 × 55                    | 55    |
 * | o3    | e2        | d1                     | 2026-03-10 | milk 500 ml 4 × 28.50              | 114   |
 * | o4    | admin     | r1                     | 2026-04-01 | curd 3 × 40                        | 120   |
 * | o5    | e2        | d1                     | 2026-03-03 | milk 1 l 10 × 55, **cancelled**    | 550   |
 *
 * and, in another workspace, an order of 1,000 × 55 on 2026-03-02 that must never be counted.
 */
export interface SalesReportWorld {
  ws: Workspace;
  other: Workspace;
  e1: { id: number; token: string; name: string };
  e2: { id: number; token: string; name: string };
  d1: { id: number; name: string };
  r1: { id: number; token: string; name: string };
  milk: { productId: number; classId: number; name: string; className: string };
  curd: { productId: number; classId: number; name: string; className: string };
  t1: number;
  t2: number;
  r1Route: number;
  unit: number;
  otherTown: number;
  /** A fresh API key with the `reports` scope (each caller has its own report budget: 20 a minute). */
  reportKey(): Promise<string>;
}

const post = async (t: TestApp, token: string, url: string, payload: Record<string, unknown>) => {
  const res = await t.request({ method: 'POST', url: `/api/v1${url}`, token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};

export async function seedSalesReportWorld(t: TestApp): Promise<SalesReportWorld> {
  const ws = await createWorkspace(t);
  const catalog = await seedCatalog(t, ws);
  const n = unique();
  const curdClass = await post(t, ws.token, '/masters/product-classes', { product_class: `Curd ${n}`, unit: 'kg' });
  const curd = await createProduct(t, ws, {
    product_name: `Curd Cup ${n}`,
    product_class_id: curdClass.id,
    product_hsn: '0403',
    variants: [{ variant_name: '400 g', item_sku_code: `CC-400-${n}`, mrp: 45, sp: 40 }],
  });
  const t1 = await post(t, ws.token, '/masters/towns', { town_name: `Anand ${n}` });
  const t2 = await post(t, ws.token, '/masters/towns', { town_name: `Nadiad ${n}` });
  const route = await post(t, ws.token, '/masters/routes', { route_name: `Ring Road ${n}`, town_id: t1.id });
  const unit = await post(t, ws.token, '/masters/production-units', { production_unit_name: `Plant ${n}` });
  const d1 = await createUser(t, ws, UserType.DISTRIBUTOR, { town_id: t1.id, route_id: route.id });
  const r1 = await createUser(t, ws, UserType.RETAILER, { town_id: t2.id });
  const e1 = await createUser(t, ws, UserType.EMPLOYEE);
  const e2 = await createUser(t, ws, UserType.EMPLOYEE);
  const [milk500, milk1000] = catalog.variantIds;
  const [curd400] = curd.variantIds;
  const order = (token: string, customer: number, date: string, items: [number, number][], extra = {}) =>
    placeOrder(t, token, { user_id: customer, order_date: date, items: items.map(([id, quantity]) => ({ product_variant_id: id, quantity })), ...extra });
  await order(e1.token, d1.id, '2026-03-02', [[milk500, 2], [curd400, 1]], { production_unit_id: unit.id });
  await order(e1.token, r1.id, '2026-03-04', [[milk1000, 1]]);
  await order(e2.token, d1.id, '2026-03-10', [[milk500, 4]]);
  await order(ws.token, r1.id, '2026-04-01', [[curd400, 3]]);
  const cancelled = await order(e2.token, d1.id, '2026-03-03', [[milk1000, 10]]);
  const cancel = await t.request({ method: 'POST', url: `/api/v1/orders/${cancelled.id}/cancel`, token: ws.token, payload: { reason: 'Duplicate' } });
  expect(cancel.statusCode, cancel.body).toBe(200);

  const other = await createWorkspace(t);
  const otherCatalog = await seedCatalog(t, other);
  const otherTown = await post(t, other.token, '/masters/towns', { town_name: `Elsewhere ${n}` });
  await placeOrder(t, other.token, { user_id: otherCatalog.distributorId, order_date: '2026-03-02', items: [{ product_variant_id: otherCatalog.variantIds[1], quantity: 1000 }] });

  const nameOf = (u: { body: Record<string, unknown> }) => `${u.body.first_name} ${u.body.last_name}`;
  const products = await t.request({ method: 'GET', url: `/api/v1/products/${catalog.productId}`, token: ws.token });
  return {
    ws,
    other,
    e1: { id: e1.id, token: e1.token, name: nameOf(e1) },
    e2: { id: e2.id, token: e2.token, name: nameOf(e2) },
    d1: { id: d1.id, name: String(d1.body.store_name) },
    r1: { id: r1.id, token: r1.token, name: String(r1.body.store_name) },
    milk: { productId: catalog.productId, classId: catalog.productClassId, name: products.json().data.product_name, className: products.json().data.ProductClass.product_class },
    curd: { productId: curd.id, classId: curdClass.id, name: `Curd Cup ${n}`, className: `Curd ${n}` },
    t1: t1.id,
    t2: t2.id,
    r1Route: route.id,
    unit: unit.id,
    otherTown: otherTown.id,
    reportKey: async () => (await createApiKey(t, ws, { scopes: 'read,reports' })).key,
  };
}
