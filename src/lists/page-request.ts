import { ValidationError } from '../errors/app-error';
import type { SortKey } from './sort';

/** List page size: default and maximum of the interface. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/**
 * The last page a list may be asked for. Pages beyond it hold no rows any workspace has, and the
 * bound keeps the offset ((page - 1) × limit, at most about 10^11) an exact JavaScript integer
 * and far inside PostgreSQL's bigint: `page=1e20` once overflowed the offset (a 500) or was
 * rounded to a float the database read as another page.
 */
export const MAX_PAGE = 1_000_000_000;

/** A requested page of a list, in the order the caller asks (checked against the list's `Sortable`). */
export interface PageRequest {
  page?: number;
  limit?: number;
  sort?: readonly SortKey[];
}

/** One page of results with the total count of the whole list. */
export interface Paginated<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

/** Validates a page request (a limit above 100 or a page above MAX_PAGE is refused, not capped) and returns offset/limit. */
export function resolvePage(request: PageRequest = {}): { page: number; limit: number; offset: number } {
  const page = request.page ?? 1;
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1) throw new ValidationError('page', 'must be an integer >= 1');
  if (page > MAX_PAGE) throw new ValidationError('page', `must be <= ${MAX_PAGE}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new ValidationError('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return { page, limit, offset: (page - 1) * limit };
}
