import type { FieldError } from '../src/errors/error-response';
import type { Paginated } from '../src/lists/page-request';

/** Pagination object of list responses. */
export interface PaginationBody {
  total: number;
  page: number;
  limit: number;
  total_pages: number;
}

/** `{response_code, data}`: a read. */
export function ok<T>(data: T) {
  return { response_code: 200, data };
}

/** `{response_code: 200, message, data}`: an update or delete. */
export function changed<T>(message: string, data: T) {
  return { response_code: 200, message, data };
}

/** `{response_code: 201, message, data}`: a create (send it with status 201). */
export function created<T>(message: string, data: T) {
  return { response_code: 201, message, data };
}

/** `{response_code, data, pagination}`: a page of a list, each row shaped by `present`. */
export function paginated<T, R>(page: Paginated<T>, present: (row: T) => R) {
  return { response_code: 200, data: page.items.map(present), pagination: paginationOf(page) };
}

/** `{response_code, data, pagination}`: a record with a page of its rows (`total` of them in all). */
export function pagedRecord<T>(data: T, page: { total: number; page: number; limit: number }) {
  return { response_code: 200, data, pagination: paginationOf(page) };
}

function paginationOf(page: { total: number; page: number; limit: number }): PaginationBody {
  return { total: page.total, page: page.page, limit: page.limit, total_pages: Math.ceil(page.total / page.limit) };
}

/** `{response_code, message}`: every error; a 400 adds `errors`, every invalid field (extension). */
export function errorBody(status: number, message: string, errors?: FieldError[]) {
  return errors ? { response_code: status, message, errors } : { response_code: status, message };
}
