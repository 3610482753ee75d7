import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, seedCatalog, signIn, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError, type GraphqlAnswer } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';


const CREATE = `mutation($input: CreateOrderInput!) {
  createOrder(input: $input) {
    deliveryOtp
    order { id orderCode status orderDate totalAmount itemsCount deliveryDate modeOfPayment
      customer { id } productionUnit { name } items { quantity unitPrice amount variant { id } }
      statusHistory { fromStatus toStatus } }
  }
}`;

const LIST = `query($status: OrderStatus, $dateFrom: String, $dateTo: String, $userId: Int, $search: String, $page: Int, $limit: Int) {
  orders(status: $status, dateFrom: $dateFrom, dateTo: $dateTo, userId: $userId, search: $search, page: $page, limit: $limit) {
    nodes { id orderCode status customer { id } }
    pageInfo { total page limit totalPages }
  }
}`;

const DETAIL = `query($id: Int!) {
  order(id: $id) {
    id orderCode status totalAmount itemsCount
    customer { id firstName userType role { name } town { name } route { name town { name } } }
    town { name } route { name }
    items { quantity unitPrice amount variant { id sp itemSkuCode product { id name productClass { id name } variants { id } } } }
    statusHistory { fromStatus toStatus changedAt }
  }
}`;

const STATUS = `mutation($id: Int!, $status: OrderStatus!) { updateOrderStatus(id: $id, orderStatus: $status) { id status statusHistory { fromStatus toStatus } } }`;

describe('GraphQL orders', () => {
  let t: TestApp;
  let ws: Workspace;
  let cat: Catalog;
  let ws2: Workspace;
  let cat2: Catalog;
  let employeeToken: string;
  let retailerToken: string;
  const gql = (query: string, variables?: Record<string, unknown>, token?: string) => t.graphql(query, variables, token) as Promise<GraphqlAnswer>;
  const create = (input: Record<string, unknown>, token = ws.token) => gql(CREATE, { input }, token);
  const total = async (token = ws.token) => (expectGraphqlData(await gql(LIST, {}, token)) as any).orders.pageInfo.total as number;

  beforeAll(async () => {
    t = await buildTestApp();
    ws = await createWorkspace(t);
    cat = await seedCatalog(t, ws);
    ws2 = await createWorkspace(t);
    cat2 = await seedCatalog(t, ws2);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
    retailerToken = await signIn(t, ws, cat.retailerId);
  });
  afterAll(() => t.close());

  describe('orders list filters and pageInfo', () => {
    let lw: Workspace;
    let lc: Catalog;
    let quokkaId: number;
    const ids: number[] = [];
    const codes: string[] = [];
    const list = async (vars: Record<string, unknown>, token = lw.token) => expectGraphqlData(await gql(LIST, vars, token)).orders;

    beforeAll(async () => {
      lw = await createWorkspace(t);
      lc = await seedCatalog(t, lw);
      quokkaId = (await createUser(t, lw, UserType.RETAILER, { first_name: 'Quokka' })).id;
      const plan: Array<[number, string]> = [
        [lc.distributorId, '2025-01-10'],
        [lc.retailerId, '2025-02-15'],
        [lc.distributorId, '2025-03-20'],
        [quokkaId, '2025-03-21'],
      ];
      for (const [userId, orderDate] of plan) {
        const res = expectGraphqlData(await create({ userId, orderDate, items: [{ productVariantId: lc.variantIds[0], quantity: 1 }] }, lw.token));
        ids.push(res.createOrder.order.id);
        codes.push(res.createOrder.order.orderCode);
      }
      expectGraphqlData(await gql(STATUS, { id: ids[1], status: 'FORWARDED' }, lw.token));
    });

    it('lists newest first with exact pageInfo, and pages through', async () => {
      const all = await list({});
      expect(all.nodes.map((n: any) => n.id)).toEqual([...ids].reverse());
      expect(all.pageInfo).toEqual({ total: 4, page: 1, limit: 20, totalPages: 1 });
      const second = await list({ page: 2, limit: 3 });
      expect(second.nodes.map((n: any) => n.id)).toEqual([ids[0]]);
      expect(second.pageInfo).toEqual({ total: 4, page: 2, limit: 3, totalPages: 2 });
      const beyond = await list({ page: 3, limit: 3 });
      expect(beyond.nodes).toEqual([]);
      expect(beyond.pageInfo).toEqual({ total: 4, page: 3, limit: 3, totalPages: 2 });
    });

    it('filters by status enum', async () => {
      const forwarded = await list({ status: 'FORWARDED' });
      expect(forwarded.nodes).toEqual([{ id: ids[1], orderCode: codes[1], status: 'FORWARDED', customer: { id: lc.retailerId } }]);
      expect(forwarded.pageInfo.total).toBe(1);
      expect((await list({ status: 'INITIATED' })).pageInfo.total).toBe(3);
      expect((await list({ status: 'DELIVERED' })).nodes).toEqual([]);
      expectGraphqlError(await gql(`{ orders(status: SHIPPED) { pageInfo { total } } }`, {}, lw.token), 'GRAPHQL_VALIDATION_FAILED');
    });

    it('filters by inclusive order-date range', async () => {
      expect((await list({ dateFrom: '2025-02-15' })).nodes.map((n: any) => n.id)).toEqual([ids[3], ids[2], ids[1]]);
      expect((await list({ dateTo: '2025-02-15' })).nodes.map((n: any) => n.id)).toEqual([ids[1], ids[0]]);
      const both = await list({ dateFrom: '2025-02-01', dateTo: '2025-03-20' });
      expect(both.nodes.map((n: any) => n.id)).toEqual([ids[2], ids[1]]);
      expect(both.pageInfo.total).toBe(2);
      expectGraphqlError(await gql(LIST, { dateFrom: '2025-03-01', dateTo: '2025-02-01' }, lw.token), 'BAD_USER_INPUT', 'dateFrom must not be after dateTo');
      expectGraphqlError(await gql(LIST, { dateTo: '2025-02-30' }, lw.token), 'BAD_USER_INPUT', 'dateTo must be a date in the form YYYY-MM-DD');
    });

    it('filters by customer and by search (order code, customer name; wildcards literal)', async () => {
      const mine = await list({ userId: lc.distributorId });
      expect(mine.nodes.map((n: any) => n.id)).toEqual([ids[2], ids[0]]);
      expect(mine.pageInfo.total).toBe(2);
      expect((await list({ search: codes[1] })).nodes.map((n: any) => n.id)).toEqual([ids[1]]);
      expect((await list({ search: 'qUOKKA' })).nodes.map((n: any) => n.id)).toEqual([ids[3]]);
      expect((await list({ search: 'quokka 2025', userId: quokkaId })).pageInfo.total).toBe(1);
      expect((await list({ search: '%' })).pageInfo.total).toBe(0);
      expect((await list({ search: 'quokka', status: 'FORWARDED' })).pageInfo.total).toBe(0);
    });

    it('refuses bad page arguments', async () => {
      for (const limit of [0, 101]) {
        expectGraphqlError(await gql(LIST, { limit }, lw.token), 'BAD_USER_INPUT', 'limit must be an integer from 1 to 100');
      }
      expectGraphqlError(await gql(LIST, { page: 0 }, lw.token), 'BAD_USER_INPUT', 'page must be an integer >= 1');
    });

    it('shows customers only their own orders, whatever the filters say', async () => {
      const distributorToken = await signIn(t, lw, lc.distributorId);
      const own = await list({}, distributorToken);
      expect(own.nodes.map((n: any) => n.id)).toEqual([ids[2], ids[0]]);
      expect(own.pageInfo.total).toBe(2);
      const other = await list({ userId: lc.retailerId }, distributorToken);
      expect(other.nodes).toEqual([]);
      expect(other.pageInfo.total).toBe(0);
      expect((await list({ search: 'quokka' }, distributorToken)).pageInfo.total).toBe(0);
      expectGraphqlError(await gql(DETAIL, { id: ids[1] }, distributorToken), 'NOT_FOUND', `Order ${ids[1]} not found`);
    });

    it('needs a credential', async () => {
      expectGraphqlError(await gql(LIST, {}), 'UNAUTHENTICATED');
    });
  });

  describe('createOrder', () => {
    it('places an order priced at selling prices and returns the OTP once', async () => {
      const before = await total();
      const res = expectGraphqlData(await create({
        userId: cat.distributorId,
        orderDate: '2026-03-01',
        deliveryDate: '2026-03-03',
        modeOfPayment: 'upi',
        items: [{ productVariantId: cat.variantIds[0], quantity: 3 }, { productVariantId: cat.variantIds[1], quantity: 2 }],
      })).createOrder;
      expect(res.deliveryOtp).toMatch(/^\d{6}$/);
      expect(res.order).toMatchObject({
        orderCode: expect.stringMatching(/^ORD-2026-\d{6}$/),
        status: 'INITIATED',
        orderDate: '2026-03-01',
        totalAmount: 195.5,
        itemsCount: 2,
        deliveryDate: '2026-03-03',
        modeOfPayment: 'upi',
        customer: { id: cat.distributorId },
        productionUnit: null,
        statusHistory: [{ fromStatus: null, toStatus: 'INITIATED' }],
      });
      expect(res.order.items).toEqual([
        { quantity: 3, unitPrice: 28.5, amount: 85.5, variant: { id: cat.variantIds[0] } },
        { quantity: 2, unitPrice: 55, amount: 110, variant: { id: cat.variantIds[1] } },
      ]);
      expect(await total()).toBe(before + 1);
      const again = expectGraphqlData(await gql(`query($id: Int!) { order(id: $id) { totalAmount itemsCount } }`, { id: res.order.id }, ws.token));
      expect(again.order).toEqual({ totalAmount: 195.5, itemsCount: 2 });
      expectGraphqlError(await gql(`query($id: Int!) { order(id: $id) { deliveryOtp } }`, { id: res.order.id }, ws.token), 'GRAPHQL_VALIDATION_FAILED');
    });

    it('lets customers order for themselves only, and gives consecutive codes', async () => {
      const first = expectGraphqlData(await create({ userId: cat.distributorId, items: [{ productVariantId: cat.variantIds[1], quantity: 1 }] }, cat.distributorToken));
      const second = expectGraphqlData(await create({ userId: cat.distributorId, items: [{ productVariantId: cat.variantIds[1], quantity: 1 }] }, cat.distributorToken));
      const seq = (code: string) => Number(code.slice(-6));
      expect(seq(second.createOrder.order.orderCode)).toBe(seq(first.createOrder.order.orderCode) + 1);
      expect(first.createOrder.order.totalAmount).toBe(55);
      const before = await total();
      expectGraphqlError(
        await create({ userId: cat.retailerId, items: [{ productVariantId: cat.variantIds[0], quantity: 1 }] }, cat.distributorToken),
        'BAD_USER_INPUT',
        'userId must be your own user id: customers place orders for themselves',
      );
      expect(await total()).toBe(before);
    });

    it('refuses invalid input with the field named first, and writes nothing', async () => {
      const unit = expectGraphqlData(await gql(`mutation { createProductionUnit(input: { name: "Plant A", status: INACTIVE }) { id } }`, {}, ws.token));
      const line = (over: Record<string, unknown> = {}) => ({ productVariantId: cat.variantIds[0], quantity: 1, ...over });
      const base = { userId: cat.distributorId, items: [line()] };
      const cases: Array<[Record<string, unknown>, string | RegExp]> = [
        [{ items: [] }, 'items must have at least 1 item'],
        [{ items: [line({ quantity: 0 })] }, 'items[0].quantity must be an integer from 1 to 1000000'],
        // The wording after the field is another adapter's concern; the field must come first.
        [{ items: [line(), line({ quantity: 2 })] }, /^items\[1\]\.productVariantId repeats .*items\[0\]/],
        [{ items: [line({ productVariantId: 999999 })] }, 'items[0].productVariantId does not name an active product variant of this workspace'],
        [{ items: [line(), line({ productVariantId: cat2.variantIds[0] })] }, 'items[1].productVariantId does not name an active product variant of this workspace'],
        [{ userId: ws.adminId }, 'userId must be an active distributor or retailer of this workspace'],
        [{ userId: cat2.distributorId }, 'userId must be an active distributor or retailer of this workspace'],
        [{ orderDate: '2025-13-01' }, 'orderDate must be a date in the form YYYY-MM-DD'],
        [{ orderDate: '2026-03-05', deliveryDate: '2026-03-04' }, 'deliveryDate must not be before orderDate'],
        [{ modeOfPayment: 'bitcoin' }, 'modeOfPayment must be one of: cash, credit, upi, card, bank_transfer, cheque'],
        [{ productionUnitId: unit.createProductionUnit.id }, 'productionUnitId does not name an active production unit of this workspace'],
      ];
      const before = await total();
      for (const [over, message] of cases) {
        expectGraphqlError(await create({ ...base, ...over }), 'BAD_USER_INPUT', message);
      }
      expectGraphqlError(await gql(CREATE, { input: { ...base, items: [line({ quantity: '3' })] } }, ws.token), 'BAD_USER_INPUT');
      expectGraphqlError(await create(base, ''), 'UNAUTHENTICATED');
      expect(await total()).toBe(before);
    });
  });

  describe('order detail and status flow', () => {
    it('resolves the nested customer, items, variants, product, class and history', async () => {
      const town = expectGraphqlData(await gql(`mutation { createTown(input: { name: "Pune" }) { id } }`, {}, ws.token)).createTown;
      const route = expectGraphqlData(await gql(`mutation($t: Int!) { createRoute(input: { name: "R-7", townId: $t }) { id } }`, { t: town.id }, ws.token)).createRoute;
      const shop = await createUser(t, ws, UserType.RETAILER, { first_name: 'Nested', route_id: route.id });
      const unit = expectGraphqlData(await gql(`mutation { createProductionUnit(input: { name: "Dairy 1" }) { id } }`, {}, ws.token)).createProductionUnit;
      const created = expectGraphqlData(await create({
        userId: shop.id,
        productionUnitId: unit.id,
        items: [{ productVariantId: cat.variantIds[1], quantity: 4 }],
      })).createOrder;
      expect(created.order.productionUnit).toEqual({ name: 'Dairy 1' });
      const { order } = expectGraphqlData(await gql(DETAIL, { id: created.order.id }, ws.token));
      expect(order).toMatchObject({
        id: created.order.id,
        orderCode: created.order.orderCode,
        status: 'INITIATED',
        totalAmount: 220,
        itemsCount: 1,
        customer: { id: shop.id, firstName: 'Nested', userType: 'RETAILER', role: { name: 'Retailer' }, town: { name: 'Pune' }, route: { name: 'R-7', town: { name: 'Pune' } } },
        town: { name: 'Pune' },
        route: { name: 'R-7' },
      });
      expect(order.items).toEqual([{
        quantity: 4,
        unitPrice: 55,
        amount: 220,
        variant: {
          id: cat.variantIds[1],
          sp: 55,
          itemSkuCode: expect.stringMatching(/^TM-1000-/),
          product: { id: cat.productId, name: expect.stringMatching(/^Toned Milk /), productClass: { id: cat.productClassId, name: expect.stringMatching(/^Milk /) }, variants: cat.variantIds.map((id) => ({ id })) },
        },
      }]);
      expect(order.statusHistory).toEqual([{ fromStatus: null, toStatus: 'INITIATED', changedAt: expect.any(String) }]);
      expectGraphqlError(await gql(DETAIL, { id: 999999 }, ws.token), 'NOT_FOUND', 'Order 999999 not found');
    });

    it('moves an order through the whole flow, one step at a time', async () => {
      const { order } = expectGraphqlData(await create({ userId: cat.retailerId, items: [{ productVariantId: cat.variantIds[0], quantity: 2 }] })).createOrder;
      const history: Array<{ fromStatus: string | null; toStatus: string }> = [{ fromStatus: null, toStatus: 'INITIATED' }];
      let from = 'INITIATED';
      for (const status of ['FORWARDED', 'APPROVED', 'DELIVERED']) {
        history.push({ fromStatus: from, toStatus: status });
        const moved = expectGraphqlData(await gql(STATUS, { id: order.id, status }, employeeToken)).updateOrderStatus;
        expect(moved).toEqual({ id: order.id, status, statusHistory: history });
        from = status;
      }
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'FORWARDED' }, ws.token), 'CONFLICT', `Order ${order.orderCode} is already Delivered (4); its status can no longer change`);
      const seen = expectGraphqlData(await gql(DETAIL, { id: order.id }, retailerToken)).order;
      expect(seen.status).toBe('DELIVERED');
      expect(seen.statusHistory.map((h: any) => [h.fromStatus, h.toStatus])).toEqual(history.map((h) => [h.fromStatus, h.toStatus]));
    });

    it('refuses skips, repeats and going back with CONFLICT and changes nothing', async () => {
      const { order } = expectGraphqlData(await create({ userId: cat.retailerId, items: [{ productVariantId: cat.variantIds[0], quantity: 1 }] })).createOrder;
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'APPROVED' }, ws.token), 'CONFLICT', `Order ${order.orderCode} is Initiated (1); the only allowed next status is Forwarded (2)`);
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'DELIVERED' }, ws.token), 'CONFLICT', /only allowed next status is Forwarded \(2\)$/);
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'INITIATED' }, ws.token), 'BAD_USER_INPUT', /^orderStatus must be 2 \(Forwarded\), 3 \(Approved\) or 4 \(Delivered\)$/);
      expectGraphqlData(await gql(STATUS, { id: order.id, status: 'FORWARDED' }, ws.token));
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'FORWARDED' }, ws.token), 'CONFLICT', /is Forwarded \(2\); the only allowed next status is Approved \(3\)$/);
      const after = expectGraphqlData(await gql(DETAIL, { id: order.id }, ws.token)).order;
      expect(after.status).toBe('FORWARDED');
      expect(after.statusHistory).toHaveLength(2);
    });

    it('lets only staff change status, and only for visible orders', async () => {
      const { order } = expectGraphqlData(await create({ userId: cat.distributorId, items: [{ productVariantId: cat.variantIds[0], quantity: 1 }] })).createOrder;
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'FORWARDED' }, cat.distributorToken), 'FORBIDDEN');
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'FORWARDED' }, retailerToken), 'FORBIDDEN');
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'FORWARDED' }), 'UNAUTHENTICATED');
      expectGraphqlError(await gql(STATUS, { id: 999999, status: 'FORWARDED' }, ws.token), 'NOT_FOUND', 'Order 999999 not found');
      expect(expectGraphqlData(await gql(DETAIL, { id: order.id }, ws.token)).order.status).toBe('INITIATED');
      // Customer visibility of single orders.
      expect(expectGraphqlData(await gql(DETAIL, { id: order.id }, cat.distributorToken)).order.id).toBe(order.id);
      expectGraphqlError(await gql(DETAIL, { id: order.id }, retailerToken), 'NOT_FOUND', `Order ${order.id} not found`);
    });
  });

  describe('another workspace', () => {
    it('cannot see, list or move this workspace’s orders', async () => {
      const { order } = expectGraphqlData(await create({ userId: cat.distributorId, items: [{ productVariantId: cat.variantIds[0], quantity: 1 }] })).createOrder;
      expectGraphqlError(await gql(DETAIL, { id: order.id }, ws2.token), 'NOT_FOUND', `Order ${order.id} not found`);
      expectGraphqlError(await gql(STATUS, { id: order.id, status: 'FORWARDED' }, ws2.token), 'NOT_FOUND', `Order ${order.id} not found`);
      const theirs = expectGraphqlData(await gql(LIST, { userId: cat.distributorId }, ws2.token)).orders;
      expect(theirs).toEqual({ nodes: [], pageInfo: { total: 0, page: 1, limit: 20, totalPages: 0 } });
      expect(expectGraphqlData(await gql(LIST, { search: order.orderCode }, ws2.token)).orders.pageInfo.total).toBe(0);
      expect(expectGraphqlData(await gql(DETAIL, { id: order.id }, ws.token)).order.status).toBe('INITIATED');
      const own = expectGraphqlData(await create({ userId: cat2.retailerId, items: [{ productVariantId: cat2.variantIds[1], quantity: 1 }] }, ws2.token)).createOrder;
      expect(own.order.customer).toEqual({ id: cat2.retailerId });
      expect(await total(ws2.token)).toBe(1);
    });
  });
});
