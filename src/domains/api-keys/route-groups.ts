/**
 * Route groups: the first path segment after /api/v1 (`/orders/7/status` → `orders`), hyphens
 * spelt as underscores so that a group is one scope token (`/beat-plans` → `beat_plans`). API key
 * scopes and the key refusals are stated in groups, which the domains declare
 * (DomainModule.routeGroups); GraphQL root fields name the group they belong to (see
 * graphql/route-group.ts), so both doors apply the same rules.
 */

const API_PREFIX = '/api/v1/';

/**
 * The group of a request: from the route that matched (its pattern is what runs), else from the
 * path of the URL — origin-form or absolute-form (`GET http://host/api/v1/...`) alike. Null
 * outside /api/v1 (GraphQL is checked per operation).
 */
export function routeGroupOf(request: { url: string; routeOptions: { url?: string } }): string | null {
  return groupOfPath(request.routeOptions.url ?? new URL(request.url, 'http://localhost').pathname);
}

/** The group of a path: its first segment after /api/v1, decoded, lower-cased, hyphens as underscores. */
export function groupOfPath(path: string): string | null {
  if (!path.startsWith(API_PREFIX)) return null;
  const segment = path.slice(API_PREFIX.length).split('/')[0];
  return decoded(segment).toLowerCase().replaceAll('-', '_');
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed escapes: no route matches it anyway
  }
}
