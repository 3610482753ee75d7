import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Raw SQL of one workspace. Raw statements bypass the ORM's tenant filter, so this is where
 * tenancy is written for them: a statement starts from a root table bound to the caller's
 * organization (`owns`), and every tenant-owned table it joins is matched on organization_id
 * too (`join`, `leftJoin`), so an id that names another workspace's row finds nothing, and the
 * (organization_id, …) indexes serve each join. Values are bound, never spliced into the text.
 */

/** SQL text with its bound values, in order; `text` has `?` placeholders (MikroORM's execute). */
export class Sql {
  private rendered?: string;

  /** `strings` has one more element than `values`: the text around each value. */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  get text(): string {
    this.rendered ??= this.strings.join('?');
    return this.rendered;
  }

  /** The text with `$1`, `$2`, … placeholders, as node-postgres takes it. */
  get pgText(): string {
    return this.strings.reduce((text, s, i) => `${text}$${i}${s}`);
  }
}

/**
 * SQL from a template: an interpolated Sql is spliced in with its own values, anything else is
 * bound as a value. `sql\`o.status = ${status}\`` → text `o.status = ?`, values [status].
 */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): Sql {
  const outStrings: string[] = [strings[0]];
  const outValues: unknown[] = [];
  values.forEach((value, i) => {
    if (value instanceof Sql) {
      outStrings[outStrings.length - 1] += value.strings[0];
      for (let j = 0; j < value.values.length; j++) {
        outValues.push(value.values[j]);
        outStrings.push(value.strings[j + 1]);
      }
      outStrings[outStrings.length - 1] += strings[i + 1];
    } else {
      outValues.push(value);
      outStrings.push(strings[i + 1]);
    }
  });
  return new Sql(outStrings, outValues);
}

/** Trusted SQL text with no values (static pieces written in this code base, never input). */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/** Pieces of SQL joined by a separator (` and `, `, `). */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  if (parts.length === 0) return raw('');
  const strings = new Array<string>(parts.length + 1).fill(separator);
  strings[0] = '';
  strings[parts.length] = '';
  return sql(strings, ...parts);
}

/** Raw SQL scoped to one organization, from a root table alias; see the file's comment. */
export class TenantSql {
  /** Use tenantSql(): it checks the organization. */
  constructor(
    readonly organizationId: number,
    readonly root: string,
  ) {}

  /** `<alias>.organization_id = ?` bound to the organization: the condition of a statement's root table. */
  owns(alias: string = this.root): Sql {
    return sql([`${alias}.organization_id = `, ''], this.organizationId);
  }

  /** `join <table> <alias> on <on> and <alias>.organization_id = <root>.organization_id`. */
  join(table: string, alias: string, on?: string | Sql): Sql {
    return this.joined('join', table, alias, on);
  }

  /** As join(), for a row that may be missing. */
  leftJoin(table: string, alias: string, on?: string | Sql): Sql {
    return this.joined('left join', table, alias, on);
  }

  /** The same organization from another root alias (a subquery's, or a table reached through a CTE). */
  rooted(alias: string): TenantSql {
    return new TenantSql(this.organizationId, alias);
  }

  private joined(kind: string, table: string, alias: string, on: string | Sql | undefined): Sql {
    const tenant = `${alias}.organization_id = ${this.root}.organization_id`;
    if (on === undefined) return raw(`${kind} ${table} ${alias} on ${tenant}`);
    return sql`${raw(`${kind} ${table} ${alias} on `)}${typeof on === 'string' ? raw(on) : on}${raw(` and ${tenant}`)}`;
  }
}

/** Raw SQL builder for one organization (a positive integer, else it throws), rooted at `root`. */
export function tenantSql(organizationId: number, root: string): TenantSql {
  if (!Number.isSafeInteger(organizationId) || organizationId <= 0) {
    throw new Error(`Tenant-scoped SQL needs an organization id, got ${String(organizationId)}`);
  }
  return new TenantSql(organizationId, root);
}

/** Runs a statement on the EntityManager's connection (its transaction, if it is in one). */
export function executeSql<T extends object>(em: EntityManager, statement: Sql): Promise<T[]> {
  return em.execute<T[]>(statement.text, [...statement.values]);
}
