/** Escapes LIKE wildcards so user text matches literally. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One term of a free-text search. */
export interface SearchTerm {
  /** The term as given. */
  text: string;
  /** `%term%`, wildcards escaped: the LIKE pattern that must match (case-insensitively) a searched field. */
  pattern: string;
  /**
   * Whether a pg_trgm index can find the term's rows: it holds three letters or digits in a row.
   * A shorter term has no trigram, and a trigram index would hand back every row of the table to
   * be checked (a GIN scan of every entry: 0.9 s for `ku` over 500,000 orders, against 0.25 s
   * for reading them), so its rows must be read and matched instead. ASCII only, as pg_trgm in a
   * database of the C locale sees them: a term of other letters only is matched by reading rows.
   */
  trigrams: boolean;
}

/**
 * The terms of a free-text search: its first five whitespace-separated words, wildcards escaped.
 * Every term must match (case-insensitively) at least one searched field.
 */
export function searchTermsOf(search: string | undefined): SearchTerm[] {
  return (search ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
    .map((term) => ({ text: term, pattern: `%${likeEscape(term)}%`, trigrams: /[a-z0-9]{3}/i.test(term) }));
}

/**
 * A MikroORM condition for a free-text search: every whitespace-separated term must appear
 * (case-insensitively) in at least one of the fields. `fieldCondition` builds the condition
 * for one field and one `%term%` pattern, which lets callers reach into relations.
 */
export function searchCondition<W>(
  search: string | undefined,
  fieldConditions: Array<(pattern: string) => W>,
): { $and: Array<{ $or: W[] }> } | Record<string, never> {
  const terms = searchTermsOf(search);
  if (terms.length === 0) return {};
  return { $and: terms.map(({ pattern }) => ({ $or: fieldConditions.map((build) => build(pattern)) })) };
}
