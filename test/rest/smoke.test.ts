import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, placeOrder, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';

describe('smoke', () => {
  let t: TestApp;
  let ws: Workspace;
  let catalog: Catalog;
  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    catalog = await seedCatalog(t, ws);
  });
  afterAll(() => t.close());

  it('places and lists an order', async () => {
    const order = await placeOrder(t, ws.token, { user_id: catalog.distributorId, items: [{ product_variant_id: catalog.variantIds[0], quantity: 3 }] });
    expect(order.order_total_amount).toBe(85.5);
    const list = await t.request({ method: 'GET', url: '/api/v1/orders', token: ws.token });
    expect(list.json().pagination).toEqual({ total: 1, page: 1, limit: 20, total_pages: 1 });
  });
});
