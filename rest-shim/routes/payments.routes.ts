import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PAYMENT_MODES } from '../../src/domains/orders/order.service';
import { changed, created, paginated } from '../envelope';
import { PaymentBody, presentPayment } from '../presenters/payment.presenter';
import { changedResponse, createdResponse, DateString, IdParams, listResponse, Nullable, listQuery, pageRequestOf } from '../schemas';
import { PAYMENT_SORT } from '../../src/domains/payments/payment-statements';

const RecordPaymentBody = Type.Object({
  order_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'The order it was collected against; or, instead, customer_id' }))),
  customer_id: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, description: 'On account (no order_id): the customer who paid; allocated oldest-first over their open delivered orders' })),
  ),
  amount: Type.Number({ exclusiveMinimum: 0, description: 'With order_id: at most what the order still owes' }),
  mode_of_payment: Type.Optional(Nullable(Type.String({ enum: [...PAYMENT_MODES], description: 'default cash' }))),
  paid_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'default now; not in the future' }))),
  reference: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
});

const PaymentQuery = listQuery(
  {
    order_id: Type.Optional(Type.Integer({ minimum: 1 })),
    customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
    date_from: Type.Optional(DateString),
    date_to: Type.Optional(DateString),
  },
  { sort: PAYMENT_SORT },
);

/** Collections against orders (extension resources; see the README). */
export const paymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Payments'];

  app.post(
    '/payments',
    {
      schema: {
        tags,
        summary: 'Record money collected against an order, or on account from a customer, allocated oldest-first over their open delivered orders (staff and API keys)',
        body: RecordPaymentBody,
        response: createdResponse(PaymentBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const payment = await app.services.payments.record(request.ctx, {
        orderId: b.order_id,
        customerId: b.customer_id,
        amount: b.amount,
        modeOfPayment: b.mode_of_payment,
        paidAt: b.paid_at,
        reference: b.reference,
      });
      return reply.code(201).send(created('Payment recorded', presentPayment(payment)));
    },
  );

  app.post(
    '/payments/:id/void',
    {
      schema: {
        tags,
        summary: 'Void a payment recorded by mistake (administrators and API keys): a payment of the negated amount naming it; the ledger posts the reversal',
        params: IdParams,
        body: Type.Object({ reason: Type.String({ maxLength: 500, description: 'Required' }) }),
        response: createdResponse(PaymentBody),
      },
    },
    async (request, reply) => {
      const voided = await app.services.payments.void(request.ctx, request.params.id, request.body.reason);
      return reply.code(201).send(created('Payment voided', presentPayment(voided)));
    },
  );

  app.post(
    '/payments/:id/allocate',
    {
      schema: {
        tags,
        summary: 'Allocate what an on-account payment left unallocated over the customer’s open delivered orders, oldest first (staff and API keys); 409 when nothing is left or nothing is owed',
        params: IdParams,
        response: changedResponse(PaymentBody),
      },
    },
    async (request) => changed('Payment allocated', presentPayment(await app.services.payments.allocate(request.ctx, request.params.id))),
  );

  app.get(
    '/payments',
    { schema: { tags, summary: 'Payments, newest first (staff); dates are the workspace’s local days', querystring: PaymentQuery, response: listResponse(PaymentBody) } },
    async (request) => {
      const q = request.query;
      const page = await app.services.payments.list(request.ctx, { orderId: q.order_id, customerId: q.customer_id, dateFrom: q.date_from, dateTo: q.date_to }, pageRequestOf(q));
      return paginated(page, presentPayment);
    },
  );
};
