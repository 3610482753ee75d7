/** A SQL connection inside which statements can run in one transaction (pg's PoolClient fits). */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** Lends a connection for `work` (graphile-worker's `helpers.withPgClient`). */
export type WithClient = <T>(work: (client: SqlClient) => Promise<T>) => Promise<T>;
