import { ValidationError } from '../errors/app-error';

export type SortDirection = 'asc' | 'desc';

/** One key of a requested order: a sortable field of the list, as the API spells it, and its direction. */
export interface SortKey {
  field: string;
  direction: SortDirection;
}

/**
 * How a list may be ordered, declared once by its domain: the fields a caller may sort by (as the
 * REST responses spell them) and what each sorts by (an entity property, or a SQL column for the
 * lists read by raw statements), and the order used when none is asked for. `id` is always one of
 * the fields and breaks ties, so a page boundary never splits or repeats equal rows.
 */
export interface Sortable<By = string> {
  /** Names the GraphQL types: `Order` → `OrderSortField`, `OrderSort`. */
  name: string;
  fields: Readonly<Record<string, By>>;
  /** The order when the request names none, as `sort` text (`-created_at`). */
  default: string;
}

/** An order ready to apply: what each key sorts by, `id` last. */
export type ResolvedSort<By> = Array<{ by: By; direction: SortDirection }>;

/** Most keys one request may name (beyond them an order adds nothing a user can see). */
const MAX_KEYS = 4;

/** Declares a list's order (for the type check). */
export function sortable<By>(spec: Sortable<By>): Sortable<By> {
  if (!('id' in spec.fields)) throw new Error(`Sortable ${spec.name} must include id`);
  return spec;
}

/**
 * `-order_date,id` → keys: comma-separated field names, each descending with a leading `-`
 * (ascending with none or `+`). The names are checked against the list by `resolveSort`.
 */
export function parseSort(text: string | undefined): SortKey[] | undefined {
  if (text === undefined) return undefined;
  return text.split(',').map((part) => {
    const item = part.trim();
    const descending = item.startsWith('-');
    const field = descending || item.startsWith('+') ? item.slice(1) : item;
    if (!/^[a-z][a-z0-9_]*$/.test(field)) throw new ValidationError('sort', `"${part}" is not a field name; write fields as -order_date,id`);
    return { field, direction: descending ? 'desc' : 'asc' };
  });
}

/** The fields of a list a caller may sort by, as OpenAPI and the errors list them. */
export function sortFieldsOf(spec: Sortable<unknown>): string[] {
  return Object.keys(spec.fields);
}

/**
 * The requested keys (or the list's default) checked against the list: an unknown or repeated
 * field is a 400 naming `sort`. `id` is appended, in the last key's direction, unless named.
 */
export function resolveSort<By>(spec: Sortable<By>, keys: readonly SortKey[] | undefined): ResolvedSort<By> {
  const requested = keys ?? parseSort(spec.default)!;
  if (requested.length === 0) throw new ValidationError('sort', 'must name at least one field');
  if (requested.length > MAX_KEYS) throw new ValidationError('sort', `may name at most ${MAX_KEYS} fields`);
  const seen = new Set<string>();
  const resolved: ResolvedSort<By> = requested.map(({ field, direction }) => {
    if (!Object.hasOwn(spec.fields, field)) {
      throw new ValidationError('sort', `"${field}" is not a sortable field of this list; sortable: ${sortFieldsOf(spec).join(', ')}`);
    }
    if (seen.has(field)) throw new ValidationError('sort', `names "${field}" twice`);
    seen.add(field);
    return { by: spec.fields[field], direction };
  });
  if (!seen.has('id')) resolved.push({ by: spec.fields.id, direction: requested[requested.length - 1].direction });
  return resolved;
}
