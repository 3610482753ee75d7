import type { Paginated } from '../src/shared/pagination';

/** Pagination object of list responses. */
export interface PaginationBody {
  total: number;
  page: number;
  limit: number;
  total_pages: number;
}

/** `{response_code, data}`: a read. */
export function ok<T>(data: T, status = 200) {
  return { response_code: status, data };
}

/** `{response_code, message, data}`: a create, update or delete. */
export function changed<T>(message: string, data: T, status = 200) {
  return { response_code: status, message, data };
}

/** `{response_code, data, pagination}`: a page of a list, each row shaped by `present`. */
export function paginated<T, R>(page: Paginated<T>, present: (row: T) => R) {
  return {
    response_code: 200,
    data: page.items.map(present),
    pagination: {
      total: page.total,
      page: page.page,
      limit: page.limit,
      total_pages: Math.ceil(page.total / page.limit),
    } satisfies PaginationBody,
  };
}

/** `{response_code, message}`: every error. */
export function errorBody(status: number, message: string) {
  return { response_code: status, message };
}
