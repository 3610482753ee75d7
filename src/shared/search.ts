/** Escapes LIKE wildcards so user text matches literally. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The `%term%` LIKE patterns of a free-text search: its first five whitespace-separated terms,
 * wildcards escaped. Every term must match (case-insensitively) at least one searched field.
 */
export function searchTerms(search: string | undefined): string[] {
  return (search ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
    .map((term) => `%${likeEscape(term)}%`);
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
  const patterns = searchTerms(search);
  if (patterns.length === 0) return {};
  return { $and: patterns.map((pattern) => ({ $or: fieldConditions.map((build) => build(pattern)) })) };
}
