import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { accountKey } from '../../src/context/rate-limits';
import { CRATE_BALANCE_SORT } from '../../src/domains/crates/crate-balances';
import { ORDER_SORT } from '../../src/domains/orders/order-statements';
import { PAYMENT_MODES } from '../../src/domains/orders/order.service';
import { changed, created, ok, pagedRecord, paginated } from '../envelope';
import { CrateBalanceBody, presentCrateBalance } from '../presenters/crate.presenter';
import { LedgerStatementBody, presentStatement } from '../presenters/ledger.presenter';
import { CreatedOrderBody, OrderBody, OrderDetailBody, presentCreatedOrder, presentOrderDetail, presentOrderPage } from '../presenters/order.presenter';
import {
  PortalDashboardBody,
  PortalProductBody,
  PortalSchemeBody,
  presentPortalDashboard,
  presentPortalProduct,
  presentInsight,
  presentPortalScheme,
  presentReorder,
  ReorderBody,
} from '../presenters/portal.presenter';
import { presentSignIn, SignInAnswer } from '../presenters/sign-in.presenter';
import { presentUser, presentUserProfile, UserBody, UserProfileBody } from '../presenters/user.presenter';
import {
  changedResponse,
  createdResponse,
  DateString,
  ErrorBody,
  IdParams,
  listQuery,
  listResponse,
  Nullable,
  okResponse,
  OrderStatusFilter,
  pagedRecordResponse,
  PageQuery,
  pageRequestOf,
  ServerErrorBody,
} from '../schemas';

const tags = ['Customer portal'];

const Window = Type.Object({ from: DateString, to: DateString });
const InsightBody = Type.Object({
  date: DateString,
  period: Type.Composite([Window, Type.Object({ weeks: Type.Integer() })], { description: 'The weeks usual orders are read from, before the current week' }),
  this_week: Type.Composite([Window], { description: 'The 7 days ending today' }),
  items: Type.Array(
    Type.Object({
      kind: Type.String({ enum: ['due_to_reorder', 'usual_order', 'no_pattern', 'due_to_buy', 'balance', 'crates'] }),
      text: Type.String(),
      figures: Type.Object({}, { additionalProperties: true, description: 'The numbers the text states' }),
      source: Type.Object({}, { additionalProperties: true, description: 'Order ids and period, the statement’s ageing, or the crate balances the figures come from' }),
    }),
  ),
});

const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
  challenge_token: Type.Optional(Nullable(Type.String({ maxLength: 20_000, description: 'Proof from the bot-check widget' }))),
});

const OrderListQuery = listQuery(
  {
    status: OrderStatusFilter,
    date_from: Type.Optional(DateString),
    date_to: Type.Optional(DateString),
    cancelled: Type.Optional(Type.String({ enum: ['true', 'false'], description: 'true: only cancelled orders; false: only orders not cancelled; default both' })),
  },
  { sort: ORDER_SORT, search: 'Matches the order code' },
);

const PortalOrderBody = Type.Object({
  items: Type.Array(Type.Object({ product_variant_id: Type.Integer({ minimum: 1 }), quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }), { minItems: 1, maxItems: 200 }),
  delivery_date: Type.Optional(Nullable(DateString)),
  production_unit_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  mode_of_payment: Type.Optional(Nullable(Type.String({ enum: [...PAYMENT_MODES] }))),
});

const StatementQuery = Type.Object({
  from: Type.Optional({ ...DateString, description: 'First day (default: the 1st of to’s month)' }),
  to: Type.Optional({ ...DateString, description: 'Last day (default: today, the workspace’s local day)' }),
  ...PageQuery,
});

const CrateQuery = listQuery(
  { held: Type.Optional(Type.Boolean({ description: 'Only types with crates held (default true)' })) },
  { sort: CRATE_BALANCE_SORT },
);

const ProfileBody = Type.Object(
  {
    first_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    last_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    official_email: Type.Optional(Nullable(Type.String({ maxLength: 254, description: 'Unique across workspaces; null removes it' }))),
    primary_contact_number: Type.Optional(Type.String({ minLength: 1, maxLength: 30, description: 'Unique across workspaces' })),
    store_name: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'null removes it' }))),
  },
  { description: 'Your contact details; omitted fields stay' },
);

const ChangePasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: 256 }),
  new_password: Type.String({ minLength: 1, maxLength: 256 }),
});

const ProductsAnswer = Type.Object({
  date: DateString,
  products: Type.Array(PortalProductBody, { description: 'A page of sellable variants (page, limit); `pagination.total` counts them all' }),
  schemes: Type.Array(PortalSchemeBody, { description: 'Schemes open to you today that target a variant of the page' }),
});

/**
 * The customer portal (/portal): distributors and retailers with a session token. API keys get 403
 * (the group is refused to keys), staff sessions 403. Thin routes over the portal service.
 */
export const portalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/portal/login',
    {
      config: { auth: 'public', budget: { name: 'signIn', key: (body: Static<typeof LoginBody>) => accountKey({ email: body.email }) } },
      schema: {
        tags,
        summary: 'Customer sign-in: /auth/login’s rules (bot-check, lockout, one session) for distributors and retailers; staff accounts 403',
        security: [],
        body: LoginBody,
        response: { 200: SignInAnswer, '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => {
      const b = request.body;
      return presentSignIn(await app.services.portal.login(request.ctx, { email: b.email, password: b.password, challengeToken: b.challenge_token }));
    },
  );

  app.get(
    '/portal/dashboard',
    { schema: { tags, summary: 'Open orders by status, balance with ageing, crates held, this month against last, schemes open to you', response: okResponse(PortalDashboardBody) } },
    async (request) => ok(presentPortalDashboard(await app.services.portal.dashboard(request.ctx))),
  );

  app.get(
    '/portal/orders',
    { schema: { tags, summary: 'Your orders', querystring: OrderListQuery, response: listResponse(OrderBody) } },
    async (request) => {
      const q = request.query;
      const filter = { status: q.status, dateFrom: q.date_from, dateTo: q.date_to, search: q.search, cancelled: q.cancelled === undefined ? undefined : q.cancelled === 'true' };
      return presentOrderPage(await app.services.portal.listOrders(request.ctx, filter, pageRequestOf(q)));
    },
  );

  app.post(
    '/portal/orders',
    { schema: { tags, summary: 'Place an order for yourself (priced today, schemes applied, as POST /orders)', body: PortalOrderBody, response: createdResponse(CreatedOrderBody) } },
    async (request, reply) => {
      const b = request.body;
      const placed = await app.services.portal.placeOrder(request.ctx, {
        items: b.items.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity })),
        deliveryDate: b.delivery_date,
        productionUnitId: b.production_unit_id,
        modeOfPayment: b.mode_of_payment,
      });
      return reply.code(201).send(created('Order created', presentCreatedOrder(placed)));
    },
  );

  app.get(
    '/portal/orders/:id',
    { schema: { tags, summary: "One of your orders (another customer's: 404)", params: IdParams, response: okResponse(OrderDetailBody) } },
    async (request) => ok(presentOrderDetail(await app.services.portal.getOrder(request.ctx, request.params.id))),
  );

  app.post(
    '/portal/orders/:id/reorder',
    {
      schema: {
        tags,
        summary: "Order an earlier order's paid lines again, at today's prices with today's schemes; variants no longer sold are skipped (409 when none is left)",
        params: IdParams,
        response: createdResponse(ReorderBody),
      },
    },
    async (request, reply) => reply.code(201).send(created('Order created', presentReorder(await app.services.portal.reorder(request.ctx, request.params.id)))),
  );

  app.get(
    '/portal/ledger',
    { schema: { tags, summary: 'Your statement of account (the ledger statement)', querystring: StatementQuery, response: pagedRecordResponse(LedgerStatementBody) } },
    async (request) => {
      const q = request.query;
      const s = await app.services.portal.statement(request.ctx, { from: q.from, to: q.to }, { page: q.page, limit: q.limit });
      return pagedRecord(presentStatement(s), { total: s.rowCount, page: s.page, limit: s.limit });
    },
  );

  app.get(
    '/portal/products',
    { schema: { tags, summary: "Your catalogue at today's prices with the schemes open to you", querystring: Type.Object(PageQuery), response: pagedRecordResponse(ProductsAnswer) } },
    async (request) => {
      const found = await app.services.portal.products(request.ctx, pageRequestOf(request.query));
      return pagedRecord(
        { date: found.date, products: found.items.map(presentPortalProduct), schemes: found.schemes.map(presentPortalScheme) },
        { total: found.total, page: found.page, limit: found.limit },
      );
    },
  );

  app.get(
    '/portal/crates',
    { schema: { tags, summary: 'Your crate balances with their ageing', querystring: CrateQuery, response: listResponse(CrateBalanceBody) } },
    async (request) => paginated(await app.services.portal.crateBalances(request.ctx, pageRequestOf(request.query), request.query.held), presentCrateBalance),
  );

  app.get(
    '/portal/profile',
    { schema: { tags, summary: 'Your profile', response: okResponse(UserProfileBody) } },
    async (request) => ok(presentUserProfile(await app.services.portal.profile(request.ctx))),
  );

  app.patch(
    '/portal/profile',
    { schema: { tags, summary: 'Change your contact details (checked as user updates are; 409 for a used e-mail or phone)', body: ProfileBody, response: changedResponse(UserBody) } },
    async (request) => {
      const b = request.body;
      const user = await app.services.portal.updateProfile(request.ctx, {
        firstName: b.first_name, lastName: b.last_name, officialEmail: b.official_email, primaryContactNumber: b.primary_contact_number, storeName: b.store_name,
      });
      return changed('Profile updated', presentUser(user));
    },
  );

  app.delete(
    '/portal/profile',
    {
      schema: {
        tags,
        summary: 'Delete your account: personal data erased, orders and ledger kept for the workspace’s books, session ended (README, Customer portal)',
        response: changedResponse(Type.Object({ user_id: Type.Integer() })),
      },
    },
    async (request) => {
      const { userId } = await app.services.portal.deleteAccount(request.ctx);
      return changed('Account deleted', { user_id: userId });
    },
  );

  app.put(
    '/portal/change-password',
    {
      config: { budget: { name: 'signIn', key: (_body, ctx) => accountKey({ userId: ctx.requireSession().userId }) } },
      schema: {
        tags,
        summary: 'Change your password (the current one required); every other session ends; answers the new token',
        body: ChangePasswordBody,
        response: { 200: Type.Object({ response_code: Type.Integer(), message: Type.String(), token: Type.String() }), '4xx': ErrorBody, '5xx': ServerErrorBody },
      },
    },
    async (request) => {
      const token = await app.services.portal.changePassword(request.ctx, request.body.current_password, request.body.new_password);
      return { response_code: 200, message: 'Password changed; use the new token', token };
    },
  );

  app.get(
    '/portal/ai-insight',
    {
      schema: {
        tags,
        summary: 'A deterministic summary of your data: usual orders and what is due to reorder, balance and ageing, crates to return; each item cites its figures and source rows',
        response: okResponse(InsightBody),
      },
    },
    async (request) => ok(presentInsight(await app.services.portal.insight(request.ctx)) as Static<typeof InsightBody>),
  );
};
