import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, joinSql, raw, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { searchTermsOf, type SearchTerm } from '../../lists/search';

/**
 * The order list's search: every term must match, case-insensitively, the order code or the
 * customer's first name, last name or store name.
 *
 * Why not one join: matched against `sales_order ⋈ app_user`, every order of the workspace is
 * read and each of its four fields matched (0.9–2 s over 500,000 orders, whatever the term). The
 * customers are matched first, in the workspace's users (a few thousand rows, a few ms), and
 * their ids given to the order statement as a constant array; a term then matches an order when
 * its code matches or its customer is one of those. That lets PostgreSQL find the orders through
 * indexes (the code's trigram index, OR'd with (organization_id, customer_id, …)), estimate how
 * many match from the array's length, and hash the array when it reads rows instead.
 * BENCHMARKS.md ("Large workspaces") has the plans and the figures.
 */

/** The customers each term matches, by term, as the ids of app_user rows of the workspace. */
async function customersMatching(em: EntityManager, organizationId: number, terms: readonly SearchTerm[]): Promise<number[][]> {
  const c = tenantSql(organizationId, 'c');
  const perTerm = terms.map(
    ({ pattern }, k) =>
      sql`coalesce(array_agg(c.id) filter (where c.first_name ilike ${pattern} or c.last_name ilike ${pattern} or c.store_name ilike ${pattern}), '{}') as ${raw(`t${k}`)}`,
  );
  const [row] = await executeSql<Record<string, number[]>>(em, sql`select ${joinSql(perTerm, ', ')} from app_user c where ${c.owns()}`);
  return terms.map((_, k) => row[`t${k}`]);
}

/**
 * The order code matches the term, in one of two spellings that give ILIKE's answer (PostgreSQL
 * computes ILIKE as LIKE over lower() of both sides in a multibyte database) and differ in the
 * indexes that serve them. Both match `lower(o.order_code)`, which the list's index holds
 * (sales_order_newest_first_index): a scan of that index checks its entries without computing
 * lower() again (ILIKE computed it for each row: three times the cost).
 * - With trigrams, `lower(code) like lower(pattern)`: the expression of the trigram index
 *   (sales_order_order_code_trigram_index), which finds the matching orders.
 * - Without, `strpos(lower(code), lower(term)) > 0`: the same substring match, which the trigram
 *   index does not serve (for such a term it would hand back every order to be checked).
 */
function codeMatches(term: SearchTerm): Sql {
  return term.trigrams ? sql`lower(o.order_code) like lower(${term.pattern}::text)` : sql`strpos(lower(o.order_code), lower(${term.text}::text)) > 0`;
}

/** One condition on `sales_order o` per term of `search` (none when it has no terms), to be ANDed. */
export async function orderSearchConditions(em: EntityManager, organizationId: number, search: string | undefined): Promise<Sql[]> {
  const terms = searchTermsOf(search);
  if (terms.length === 0) return [];
  const customers = await customersMatching(em, organizationId, terms);
  return terms.map((term, k) => {
    const ids = customers[k];
    if (ids.length === 0) return codeMatches(term);
    // One bound text of the ids ('{1,2,3}'): a constant array once bound, whatever its length.
    return sql`(${codeMatches(term)} or o.customer_id = any(${`{${ids.join(',')}}`}::int[]))`;
  });
}
