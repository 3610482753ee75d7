import pg from 'pg';

/** One foreign key as pg_constraint holds it. */
export interface ForeignKeyRow {
  name: string;
  table: string;
  columns: string[];
  target: string;
  targetColumns: string[];
  definition: string;
}

/** Runs one statement on its own connection. */
export async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Tables of the public schema with an organization_id column (the tenant-owned ones). */
export async function tablesWithOrganization(url: string): Promise<string[]> {
  const rows = await query<{ table_name: string }>(
    url,
    `select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = 'public' and c.column_name = 'organization_id' and t.table_type = 'BASE TABLE' order by 1`,
  );
  return rows.map((r) => r.table_name);
}

/** Every foreign key of the public schema, with its columns in key order. */
export async function foreignKeys(url: string): Promise<ForeignKeyRow[]> {
  return query<ForeignKeyRow>(
    url,
    `select con.conname as name, con.conrelid::regclass::text as table, con.confrelid::regclass::text as target,
            array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
            array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as "targetColumns",
            pg_get_constraintdef(con.oid) as definition
       from pg_constraint con join pg_namespace n on n.oid = con.connamespace
      where con.contype = 'f' and n.nspname = 'public' order by 2, 1`,
  );
}

/**
 * The rows that break a foreign key, counted for every key of the public schema (what the key
 * would refuse: a reference, all of whose columns are set, to no row). Used where the seed skips
 * the foreign-key triggers.
 */
export async function brokenReferences(url: string): Promise<Record<string, number>> {
  const broken: Record<string, number> = {};
  for (const fk of await foreignKeys(url)) {
    const set = fk.columns.map((c) => `c."${c}" is not null`).join(' and ');
    const match = fk.columns.map((c, i) => `t."${fk.targetColumns[i]}" = c."${c}"`).join(' and ');
    const [row] = await query<{ n: string }>(
      url,
      `select count(*) as n from "${fk.table}" c where ${set} and not exists (select 1 from "${fk.target}" t where ${match})`,
    );
    if (Number(row.n) > 0) broken[fk.name] = Number(row.n);
  }
  return broken;
}
