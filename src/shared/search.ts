/** Escapes LIKE wildcards so user text matches literally. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
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
  const terms = (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 5);
  if (terms.length === 0) return {};
  return {
    $and: terms.map((term) => {
      const pattern = `%${likeEscape(term)}%`;
      return { $or: fieldConditions.map((build) => build(pattern)) };
    }),
  };
}
