import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tenant-sql';

/**
 * Runs a statement with its values bound as parameters on the EntityManager's connection (its
 * transaction, if it is in one). MikroORM's `execute` writes every value into the SQL text first
 * (formatQuery): for an import's multi-megabyte JSON of rows that escaping and PostgreSQL's parse
 * of the literal took seconds (BENCHMARKS.md, imports); bound, the JSON goes as one parameter.
 */
export async function executeBound<T extends object>(em: EntityManager, statement: Sql): Promise<T[]> {
  const knex = em.getTransactionContext() ?? em.getConnection().getKnex();
  const result = (await knex.raw(statement.text, [...statement.values])) as { rows: T[] };
  return result.rows;
}
