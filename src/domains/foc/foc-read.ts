import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { FocRequest, FocRequestLine } from './foc.entity';

/** A FOC request as REST and GraphQL show it: its row and its lines' rows. */
export interface FocRead {
  request: Row<FocRequest>;
  lines: Array<Row<FocRequestLine>>;
}

/** The reads of FOC request rows: their lines in one tenant-filtered statement. */
export async function readFocRequests(em: EntityManager, requests: ReadonlyArray<Row<FocRequest>>): Promise<FocRead[]> {
  if (requests.length === 0) return [];
  const lines = await findRows(em, FocRequestLine, { request: { $in: requests.map((r) => r.id) } }, { orderBy: { id: 'asc' } });
  const byRequest = new Map<number, Array<Row<FocRequestLine>>>();
  for (const line of lines) {
    const list = byRequest.get(line.request) ?? [];
    list.push(line);
    byRequest.set(line.request, list);
  }
  return requests.map((request) => ({ request, lines: byRequest.get(request.id) ?? [] }));
}

/** The read of one FOC request, fresh from the database. */
export async function focReadOf(em: EntityManager, id: number): Promise<FocRead> {
  const request = await em.findOneOrFail(FocRequest, { id }, { refresh: true });
  const [read] = await readFocRequests(em, [rowOf(em, FocRequest, request)]);
  return read;
}
