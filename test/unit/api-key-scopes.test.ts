import { describe, expect, it } from 'vitest';
import { catalogOf, DOMAINS } from '../../src/domains';
import { isReadMethod, KeyScopePolicy } from '../../src/domains/api-keys/api-key-scopes';
import { groupOfPath, routeGroupOf } from '../../src/domains/api-keys/route-groups';
import { AppError } from '../../src/errors/app-error';

/** The status and message `work` fails with, or null when it passes. */
function refusal(work: () => void): { status: number; message: string } | null {
  try {
    work();
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, message: err.message };
  }
}

/** The policy the app builds, over the groups the domains declare. */
const { scopedGroups, refusedGroups } = catalogOf(DOMAINS);
const policy = new KeyScopePolicy(scopedGroups, refusedGroups);
const normalizeScopes = policy.normalize.bind(policy);
const parseScopes = policy.parse.bind(policy);
const assertKeyMayReach = policy.assertMayReach.bind(policy);
/** Every token a scopes string may hold, as the 400s list them. */
const ALLOWED = ['read', 'write', '*', ...scopedGroups].join(', ');

describe('API key scopes', () => {
  it.each([
    [undefined, 'read'],
    [null, 'read'],
    ['read', 'read'],
    ['write', 'read,write'],
    ['*', 'read,write'],
    ['READ, Write', 'read,write'],
    ['orders', 'read,orders'],
    ['workspace,orders,write,orders', 'read,write,orders,workspace'],
    [' users , products ', 'read,users,products'],
    ['*,exports,reports,dashboard,masters', 'read,write,masters,dashboard,exports,reports'],
  ])('normalizes %j to %j', (given, canonical) => {
    expect(normalizeScopes('scopes', given)).toBe(canonical);
  });

  it.each([
    ['delete', `scopes has unknown token "delete"; allowed: ${ALLOWED}`],
    ['read,,orders', `scopes has an empty token; allowed: ${ALLOWED}`],
    ['', `scopes must name at least one scope: ${ALLOWED}`],
    ['  ', `scopes must name at least one scope: ${ALLOWED}`],
    ['auth', `scopes has unknown token "auth"; allowed: ${ALLOWED}`],
  ])('refuses %j with 400', (given, message) => {
    expect(refusal(() => normalizeScopes('scopes', given))).toEqual({ status: 400, message });
  });

  it('lists every action and resource token', () => {
    expect(policy.tokens).toEqual(['read', 'write', '*', ...scopedGroups]);
    // The interface's groups and the built domains' groups, in the order of the domains; a new
    // domain's token joins after them.
    expect(scopedGroups.slice(0, 9)).toEqual(['orders', 'users', 'products', 'masters', 'dashboard', 'exports', 'workspace', 'attendance', 'payments']);
    expect(scopedGroups).toEqual(expect.arrayContaining(['tracking', 'leaves', 'reports']));
    expect(refusedGroups).toEqual(['auth', 'developer', 'signup', 'portal', 'billing', 'platform', 'super_admin', 'driver_app', 'support']);
  });

  it('parses stored scopes', () => {
    expect(parseScopes('read')).toEqual({ write: false, groups: null });
    expect(parseScopes('read,write,orders,users')).toEqual({ write: true, groups: new Set(['orders', 'users']) });
  });

  it('read covers GET and HEAD only', () => {
    expect(['GET', 'HEAD'].every(isReadMethod)).toBe(true);
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].some(isReadMethod)).toBe(false);
  });

  describe('assertKeyMayReach', () => {
    const everything = parseScopes('read,write');
    it.each(refusedGroups)('refuses /%s to every key', (group) => {
      expect(refusal(() => assertKeyMayReach(everything, group, 'read'))).toEqual({
        status: 403,
        message: `API keys are not accepted on /${group.replaceAll('_', '-')}: sign in with a session token`,
      });
    });

    it('applies the action, then the confinement', () => {
      const readOrders = parseScopes('read,orders');
      expect(refusal(() => assertKeyMayReach(readOrders, 'orders', 'read'))).toBeNull();
      expect(refusal(() => assertKeyMayReach(readOrders, 'orders', 'write'))?.message).toBe('This API key is read-only: the write scope is required');
      expect(refusal(() => assertKeyMayReach(readOrders, 'users', 'read'))?.message).toBe('This API key is not scoped for users: its scopes allow orders');
      expect(refusal(() => assertKeyMayReach(everything, 'imports', 'write'))).toBeNull(); // unconfined keys reach any open group
      expect(refusal(() => assertKeyMayReach(parseScopes('read,write,orders'), 'imports', 'read'))?.status).toBe(403);
    });
  });

  it('takes the route group from the first segment after /api/v1', () => {
    expect(groupOfPath('/api/v1/orders/7/status')).toBe('orders');
    expect(groupOfPath('/api/v1/Developer/api-keys')).toBe('developer');
    expect(groupOfPath('/api/v1/%61uth/me')).toBe('auth');
    expect(groupOfPath('/api/v1/%E0%A4%A/x')).toBe('%e0%a4%a');
    expect(groupOfPath('/api/v1/beat-plans/3')).toBe('beat_plans'); // one scope token
    expect(groupOfPath('/graphql')).toBeNull();
  });

  it('reads the group of the route that matched, else of the URL path in any request-target form', () => {
    const unmatched = (url: string) => ({ url, routeOptions: {} });
    expect(routeGroupOf({ url: 'http://evil.test/api/v1/users', routeOptions: { url: '/api/v1/users' } })).toBe('users');
    expect(routeGroupOf(unmatched('http://evil.test/api/v1/developer/x?y=1'))).toBe('developer');
    expect(routeGroupOf(unmatched('/api/v1/billing/plans?x=1'))).toBe('billing');
    expect(routeGroupOf({ url: '/graphql', routeOptions: { url: '/graphql' } })).toBeNull();
  });
});
