import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDuePrices } from '../../src/domains/products/variant-prices';
import { shiftDay } from '../../src/domains/workspace/local-day';
import { createWorkspace, seedCatalog, type Catalog, type Workspace } from '../helpers/fixtures';
import { expectGraphqlData, expectGraphqlError } from '../helpers/graphql-assertions';
import { buildTestApp, type TestApp } from '../helpers/test-app';

const PRICE_FIELDS = 'id variantId sp mrp effectiveFrom source importId createdByUserId createdByApiKeyId createdAt variant { id itemSkuCode }';
const HISTORY = `query ($variantId: Int!, $sort: [VariantPriceSort!]) { variantPrices(variantId: $variantId, sort: $sort) { nodes { ${PRICE_FIELDS} } pageInfo { total } } }`;
const RATE_LIST = `query ($date: String, $search: String) { rateList(date: $date, search: $search) {
  nodes { variantId productId productName variantName itemSkuCode variantStatus sp mrp effectiveFrom priceId source } pageInfo { total } } }`;
const CHANGE = `mutation ($variantId: Int!, $input: VariantPriceInput!) { changeVariantPrice(variantId: $variantId, input: $input) { ${PRICE_FIELDS} } }`;
const EDIT = `mutation ($productId: Int!, $variantId: Int!, $input: UpdateVariantInput!) { updateProductVariant(productId: $productId, variantId: $variantId, input: $input) { id sp mrp } }`;

/** The price history and the rate list over GraphQL: the same service as REST. */
describe('rate list and price history (GraphQL)', () => {
  let t: TestApp;
  let A: Workspace;
  let B: Workspace;
  let catalog: Catalog;
  let variantOfB: number;
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());

  beforeAll(async () => {
    t = await buildTestApp();
    A = await createWorkspace(t);
    B = await createWorkspace(t);
    catalog = await seedCatalog(t, A);
    variantOfB = (await seedCatalog(t, B)).variantIds[0];
  });
  afterAll(() => t?.close());

  it('lists the history, records manual edits, and answers the prices in force before and after a future change', async () => {
    const id = catalog.variantIds[0];
    expectGraphqlData(await t.graphql(EDIT, { productId: catalog.productId, variantId: id, input: { sp: 27 } }, A.token));
    const tomorrow = shiftDay(today(), 1);
    const scheduled = expectGraphqlData(await t.graphql(CHANGE, { variantId: id, input: { sp: 29, mrp: 32, effectiveFrom: tomorrow } }, A.token)).changeVariantPrice;
    expect(scheduled).toMatchObject({ variantId: id, sp: 29, mrp: 32, effectiveFrom: tomorrow, source: 'MANUAL', createdByUserId: A.adminId, variant: { id } });

    const history = expectGraphqlData(await t.graphql(HISTORY, { variantId: id }, A.token)).variantPrices;
    expect(history.pageInfo.total).toBe(3);
    expect(history.nodes.map((n: { sp: number }) => n.sp)).toEqual([29, 27, 28.5]);

    const inForce = async (date?: string) =>
      (expectGraphqlData(await t.graphql(RATE_LIST, { date, search: 'TM-500' }, A.token)).rateList.nodes as Array<{ variantId: number; sp: number; mrp: number }>).find((n) => n.variantId === id);
    expect(await inForce()).toMatchObject({ sp: 27, mrp: 30, effectiveFrom: today(), source: 'MANUAL', variantStatus: 'ACTIVE' });
    expect(await inForce(tomorrow)).toMatchObject({ sp: 29, mrp: 32, effectiveFrom: tomorrow });

    expect(await applyDuePrices(t.orm.em.fork(), A.organizationId, tomorrow, 'UTC')).toEqual([id]);
    const product = expectGraphqlData(await t.graphql(`query ($id: Int!) { product(id: $id) { variants { id sp mrp } } }`, { id: catalog.productId }, A.token)).product;
    expect(product.variants.find((v: { id: number }) => v.id === id)).toMatchObject({ sp: 29, mrp: 32 });
  });

  it('bad input is BAD_USER_INPUT; another workspace’s variant is NOT_FOUND', async () => {
    const id = catalog.variantIds[1];
    expectGraphqlError(await t.graphql(CHANGE, { variantId: id, input: { sp: 100 } }, A.token), 'BAD_USER_INPUT', /sp/);
    expectGraphqlError(await t.graphql(CHANGE, { variantId: id, input: { sp: 1, effectiveFrom: shiftDay(today(), -1) } }, A.token), 'BAD_USER_INPUT', /effectiveFrom/);
    expectGraphqlError(await t.graphql(RATE_LIST, { date: '2026-02-31' }, A.token), 'BAD_USER_INPUT', /date/);
    expectGraphqlError(await t.graphql(HISTORY, { variantId: variantOfB }, A.token), 'NOT_FOUND');
    expectGraphqlError(await t.graphql(CHANGE, { variantId: variantOfB, input: { sp: 1 } }, A.token), 'NOT_FOUND');
    const listed = expectGraphqlData(await t.graphql(RATE_LIST, {}, A.token)).rateList;
    expect(listed.nodes.map((n: { variantId: number }) => n.variantId).sort()).toEqual([...catalog.variantIds].sort());
  });
});
