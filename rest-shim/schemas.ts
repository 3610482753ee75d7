import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, type PageRequest } from '../src/lists/page-request';
import { parseSort, sortFieldsOf, type Sortable } from '../src/lists/sort';
import { ORDER_STATUSES } from '../src/domains/orders/order.entity';
import { ORDER_STATUS_LABELS } from '../src/domains/orders/order-status.rules';
import { ACTIVE_STATUSES } from '../src/db/active-status';

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{id}` path parameter. */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'Record id' }) });

/** `page` and `limit` of every list. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, from 1 to ${MAX_PAGE}` })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}` })),
};

/** `sort` of a list, listing the fields it may be sorted by (the names are checked by the list: resolveSort). */
function sortQuery(spec: Sortable<unknown>) {
  const fields = sortFieldsOf(spec);
  return Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Comma-separated fields, each descending with a leading \`-\`; \`id\` breaks ties. Sortable: ${fields.join(', ')}. Default: \`${spec.default}\`.`,
      examples: [`-${fields[0]},id`],
      'x-sortable-fields': fields,
    }),
  );
}

/**
 * The query of a list: `page` and `limit` (the list contract, src/lists/), `sort` by the fields
 * the list declares, `search` when the list has one (described by what it matches), and the
 * list's own filters.
 */
export function listQuery<F extends TProperties>(filters: F, options: { sort: Sortable<unknown>; search?: string }) {
  const search = options.search === undefined ? {} : { search: Type.Optional(Type.String({ maxLength: 100, description: options.search })) };
  return Type.Object({ ...PageQuery, sort: sortQuery(options.sort), ...search, ...filters });
}

/** The page, limit and order a list's query asks for (`sort` text parsed; its fields are checked by the list). */
export function pageRequestOf(query: { page?: number; limit?: number; sort?: string }): PageRequest {
  return { page: query.page, limit: query.limit, sort: parseSort(query.sort) };
}

/** `status` filter of 1 (active) or 0 (inactive). */
export const StatusFilter = Type.Optional(Type.Integer({ enum: ACTIVE_STATUSES, description: '1 active, 0 inactive' }));

/** `status` filter of an order status, 1 to 4. */
export const OrderStatusFilter = Type.Optional(
  Type.Integer({ enum: ORDER_STATUSES, description: ORDER_STATUSES.map((s) => `${s} ${ORDER_STATUS_LABELS[s]}`).join(', ') }),
);

/** An ISO 8601 timestamp; handlers hand over Date objects and the serializer writes ISO text. */
export const Timestamp = Type.Unsafe<Date | string>(Type.String({ format: 'date-time' }));

/** A calendar date, YYYY-MM-DD. */
export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

/** The body of a 5xx: `{response_code, message}`. */
export const ServerErrorBody = Type.Object({ response_code: Type.Integer(), message: Type.String() });

/** The body of a 4xx; a 400 lists every invalid field in `errors` (extension), `message` being the first. */
export const ErrorBody = Type.Object({
  response_code: Type.Integer(),
  message: Type.String(),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        // One type list rather than a union: the same meaning in a tenth of the OpenAPI text, repeated on every route.
        field: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'As the request spells it; null: the request as a whole' }),
        message: Type.String(),
      }),
      { description: 'On a 400: every invalid field (extension)' },
    ),
  ),
});

const Pagination = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  total_pages: Type.Integer(),
});

const errors = { '4xx': ErrorBody, '5xx': ServerErrorBody };

/** Responses of a read: `{response_code, data}`. */
export function okResponse<T extends TSchema>(data: T) {
  return { 200: Type.Object({ response_code: Type.Integer(), data }), ...errors };
}

const changedBody = <T extends TSchema>(data: T) =>
  Type.Object({ response_code: Type.Integer(), message: Type.String(), data });

/** Responses of an update or delete: `{response_code: 200, message, data}`. */
export function changedResponse<T extends TSchema>(data: T) {
  return { 200: changedBody(data), ...errors };
}

/** Responses of a create: `{response_code: 201, message, data}`. */
export function createdResponse<T extends TSchema>(data: T) {
  return { 201: changedBody(data), ...errors };
}

/** Responses of a record whose rows come a page at a time (a statement): `{response_code, data, pagination}`. */
export function pagedRecordResponse<T extends TSchema>(data: T) {
  return { 200: Type.Object({ response_code: Type.Integer(), data, pagination: Pagination }), ...errors };
}

/** Responses of a list: `{response_code, data: [...], pagination}`. */
export function listResponse<T extends TSchema>(item: T) {
  return {
    200: Type.Object({ response_code: Type.Integer(), data: Type.Array(item), pagination: Pagination }),
    ...errors,
  };
}
