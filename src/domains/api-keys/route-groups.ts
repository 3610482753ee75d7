/**
 * Route groups: the first path segment after /api/v1 (`/orders/7/status` → `orders`). API key
 * scopes and the key refusals are stated in groups; GraphQL root fields name the group they
 * belong to (see graphql/route-group.ts), so both doors apply the same rules.
 */

/** Groups an API key may be confined to with a resource token. */
export const RESOURCE_GROUPS = ['orders', 'users', 'products', 'masters', 'dashboard', 'exports', 'reports', 'workspace', 'attendance', 'payments'] as const;

/** Groups closed to API keys whatever their scopes (403): sign-in, administration and user-facing apps. */
export const KEY_REFUSED_GROUPS = [
  'auth',
  'signup',
  'developer',
  'billing',
  'platform',
  'super-admin',
  'portal',
  'driver-app',
  'support',
] as const;

export type ResourceGroup = (typeof RESOURCE_GROUPS)[number];
export type RouteGroup = ResourceGroup | (typeof KEY_REFUSED_GROUPS)[number];

const API_PREFIX = '/api/v1/';

/**
 * The group of a request: from the route that matched (its pattern is what runs), else from the
 * path of the URL — origin-form or absolute-form (`GET http://host/api/v1/...`) alike. Null
 * outside /api/v1 (GraphQL is checked per operation).
 */
export function routeGroupOf(request: { url: string; routeOptions: { url?: string } }): string | null {
  return groupOfPath(request.routeOptions.url ?? new URL(request.url, 'http://localhost').pathname);
}

/** The group of a path: its first segment after /api/v1, decoded and lower-cased. */
export function groupOfPath(path: string): string | null {
  if (!path.startsWith(API_PREFIX)) return null;
  const segment = path.slice(API_PREFIX.length).split('/')[0];
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase(); // malformed escapes: no route matches it anyway
  }
}

/** Whether API keys are refused on this group whatever their scopes. */
export function isKeyRefusedGroup(group: string): boolean {
  return (KEY_REFUSED_GROUPS as readonly string[]).includes(group);
}
