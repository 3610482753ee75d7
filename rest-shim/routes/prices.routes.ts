import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { RATE_LIST_SORT, VARIANT_PRICE_SORT } from '../../src/domains/products/price.service';
import { created, paginated } from '../envelope';
import { presentRateListEntry, presentVariantPrice, RateListEntryBody, VariantPriceBody } from '../presenters/variant-price.presenter';
import { createdResponse, DateString, listQuery, listResponse, pageRequestOf, StatusFilter } from '../schemas';

const VariantParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'Variant id' }) });

const PriceChangeBody = Type.Object({
  sp: Type.Number({ minimum: 0, description: 'Selling price, at most mrp' }),
  mrp: Type.Optional(Type.Number({ minimum: 0, description: 'Default: the MRP in force on the effective day' })),
  effective_from: Type.Optional({ ...DateString, description: "YYYY-MM-DD, today or later in the workspace's time zone; default today" }),
});

const RateListQuery = listQuery(
  {
    date: Type.Optional({ ...DateString, description: "The day whose prices in force are listed; default today in the workspace's time zone" }),
    status: StatusFilter,
    product_id: Type.Optional(Type.Integer({ minimum: 1, description: "Only this product's variants" })),
  },
  { sort: RATE_LIST_SORT, search: 'Matches the SKU code, the variant name or the product name' },
);

/** GET /products/rate-list, GET/POST /products/variants/{id}/prices: the price history of variants and the prices in force on a day. */
export const priceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products/rate-list',
    {
      schema: {
        tags: ['Products'],
        summary: "The rate list: every variant's price in force on a day (default today), by SKU code; variants created later are not listed",
        querystring: RateListQuery,
        response: listResponse(RateListEntryBody),
      },
    },
    async (request) => {
      const { date, search, status, product_id: productId } = request.query;
      const page = await app.services.prices.rateList(request.ctx, { date, search, status, productId }, pageRequestOf(request.query));
      return paginated(page, presentRateListEntry);
    },
  );

  app.get(
    '/products/variants/:id/prices',
    {
      schema: {
        tags: ['Products'],
        summary: "A variant's price history (append-only versions), latest effective day first",
        params: VariantParams,
        querystring: listQuery({}, { sort: VARIANT_PRICE_SORT }),
        response: listResponse(VariantPriceBody),
      },
    },
    async (request) => paginated(await app.services.prices.history(request.ctx, request.params.id, pageRequestOf(request.query)), presentVariantPrice),
  );

  app.post(
    '/products/variants/:id/prices',
    {
      schema: {
        tags: ['Products'],
        summary: "A new version of a variant's prices from a day, today or later (admins and keys); orders already placed keep their prices",
        params: VariantParams,
        body: PriceChangeBody,
        response: createdResponse(VariantPriceBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const price = await app.services.prices.change(request.ctx, request.params.id, { sp: b.sp, mrp: b.mrp, effectiveFrom: b.effective_from });
      return reply.code(201).send(created('Price recorded', presentVariantPrice(price)));
    },
  );
};

