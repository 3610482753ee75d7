import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, created, ok, paginated } from '../envelope';
import { exportRoute } from '../export-route';
import { presentSecondarySale, presentSecondaryStock, SecondarySaleBody, SecondaryStockBody } from '../presenters/secondary-sale.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from '../../src/domains/orders/order-pricing';
import { MAX_CLIENT_REF, MAX_INVOICE_NO, SECONDARY_SALE_SORT } from '../../src/domains/secondary-sales/secondary-sale.service';
import { secondarySalesExport } from '../../src/domains/secondary-sales/secondary-sales.export';

const Id = Type.Integer({ minimum: 1 });

const RecordBody = Type.Object({
  client_ref: Type.Optional(Nullable(Type.String({ maxLength: MAX_CLIENT_REF, description: "The sender's key: a re-send with the same one answers the same sale (200)" }))),
  distributor_id: Type.Optional(Nullable({ ...Id, description: 'Required of staff and API keys; a distributor books their own' })),
  retailer_id: { ...Id, description: 'A retailer of the workspace' },
  invoice_no: Type.String({ minLength: 1, maxLength: MAX_INVOICE_NO, description: 'Unique per distributor' }),
  invoice_date: { ...DateString, description: 'YYYY-MM-DD, not after today' },
  visit_id: Type.Optional(Nullable({ ...Id, description: "A field employee's own visit at an outlet on the retailer's route" })),
  items: Type.Array(
    Type.Object({
      product_variant_id: Id,
      quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
      free_quantity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_LINE_QUANTITY, description: 'Units given free (default 0)' }))),
      rate: Type.Number({ minimum: 0, description: 'Price of one unit, two decimals' }),
      discount_amount: Type.Optional(Nullable(Type.Number({ minimum: 0, description: 'What the applied scheme took off the line (default 0), at most quantity × rate' }))),
      scheme_id: Type.Optional(Nullable({ ...Id, description: 'The scheme applied (a scheme of the workspace)' })),
    }),
    { minItems: 1, maxItems: MAX_ORDER_LINES },
  ),
});

const ListQuery = listQuery(
  {
    distributor_id: Type.Optional(Id),
    retailer_id: Type.Optional(Id),
    date_from: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: invoiced on or after this day' }),
    date_to: Type.Optional({ ...DateString, description: 'YYYY-MM-DD: invoiced on or before this day' }),
  },
  { sort: SECONDARY_SALE_SORT, search: 'the invoice number' },
);

const StockQuery = Type.Object({
  distributor_id: Type.Optional({ ...Id, description: 'Required of staff and API keys; a distributor reads their own' }),
  date_to: Type.Optional({ ...DateString, description: 'YYYY-MM-DD (default: today)' }),
});

/** Secondary sales: record (idempotent by client_ref), list, read, the sell-in vs sell-out view, the export (see the README's API notes). */
export const secondarySalesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Secondary sales'];

  app.post(
    '/secondary-sales',
    {
      schema: {
        tags,
        summary: "Record a distributor's invoice to a retailer (201); a re-send with the same client_ref answers the same sale (200)",
        body: RecordBody,
        response: { ...createdResponse(SecondarySaleBody), ...changedResponse(SecondarySaleBody) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const { read, created: isNew } = await app.services.secondarySales.record(request.ctx, {
        clientRef: b.client_ref,
        distributorId: b.distributor_id,
        retailerId: b.retailer_id,
        invoiceNo: b.invoice_no,
        invoiceDate: b.invoice_date,
        visitId: b.visit_id,
        items: b.items.map((i) => ({
          productVariantId: i.product_variant_id,
          quantity: i.quantity,
          freeQuantity: i.free_quantity,
          rate: i.rate,
          discountAmount: i.discount_amount,
          schemeId: i.scheme_id,
        })),
      });
      if (!isNew) return reply.code(200).send(changed('Secondary sale already recorded with this client_ref', presentSecondarySale(read)));
      return reply.code(201).send(created('Secondary sale recorded', presentSecondarySale(read)));
    },
  );

  app.get(
    '/secondary-sales',
    { schema: { tags, summary: 'Secondary sales, newest invoice first (distributors: their own; retailers: those to them)', querystring: ListQuery, response: listResponse(SecondarySaleBody) } },
    async (request) => {
      const q = request.query;
      const filter = { distributorId: q.distributor_id, retailerId: q.retailer_id, dateFrom: q.date_from, dateTo: q.date_to, search: q.search };
      return paginated(await app.services.secondarySales.list(request.ctx, filter, pageRequestOf(q)), presentSecondarySale);
    },
  );

  app.get(
    '/secondary-sales/stock',
    {
      schema: {
        tags,
        summary: "A distributor's sell-in (delivered primary orders) against sell-out (secondary sales) per variant up to a day; negative implied stock flagged",
        querystring: StockQuery,
        response: okResponse(SecondaryStockBody),
      },
    },
    async (request) => ok(presentSecondaryStock(await app.services.secondarySales.stock(request.ctx, { distributorId: request.query.distributor_id, dateTo: request.query.date_to }))),
  );

  app.get(
    '/secondary-sales/:id',
    { schema: { tags, summary: 'One secondary sale (distributors: their own; retailers: those to them)', params: IdParams, response: okResponse(SecondarySaleBody) } },
    async (request) => ok(presentSecondarySale(await app.services.secondarySales.get(request.ctx, request.params.id))),
  );

  exportRoute(app, {
    source: secondarySalesExport,
    summary: 'Secondary sales as XLSX, PDF or CSV: one row per invoice with quantities and amounts totalled (administrators and API keys)',
    query: {
      distributor_id: Type.Optional({ ...Id, description: 'Sales by this distributor' }),
      retailer_id: Type.Optional({ ...Id, description: 'Sales to this retailer' }),
      date_from: Type.Optional({ ...DateString, description: 'Invoice date from (inclusive)' }),
      date_to: Type.Optional({ ...DateString, description: 'Invoice date to (inclusive)' }),
    },
    filters: (q) => ({ distributorId: q.distributor_id, retailerId: q.retailer_id, dateFrom: q.date_from, dateTo: q.date_to }),
  });
};
