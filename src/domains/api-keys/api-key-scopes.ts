import { ForbiddenError, ValidationError } from '../../errors/app-error';

/** What a key's scopes allow: reading always, writing with `write` or `*`, and optionally only some groups. */
export interface KeyScopes {
  write: boolean;
  /** The groups the key is confined to; null reaches every group open to keys. */
  groups: ReadonlySet<string> | null;
}

/** Scopes of a key created without any. */
export const DEFAULT_SCOPES = 'read';

const ACTION_TOKENS = ['read', 'write', '*'];

/** `read` permits GET and HEAD; every other method needs `write`. */
export function isReadMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * What API key scopes mean, over the route groups the domains declare (see DomainModule.routeGroups):
 * keys may be confined to `scopedGroups` by naming them, and `refusedGroups` refuse every key.
 */
export class KeyScopePolicy {
  /** Every token a scopes string may hold, for messages and docs. */
  readonly tokens: readonly string[];

  constructor(
    private readonly scopedGroups: readonly string[],
    private readonly refusedGroups: readonly string[],
  ) {
    this.tokens = [...ACTION_TOKENS, ...scopedGroups];
  }

  /**
   * Checks a comma-separated scopes string and returns its canonical spelling: tokens lower-cased,
   * `*` spelt `read,write`, duplicates dropped, actions first, groups in the order of the domains.
   * Unknown or empty tokens are a 400.
   */
  normalize(field: string, value: string | null | undefined): string {
    if (value == null) return DEFAULT_SCOPES;
    if (value.trim() === '') throw new ValidationError(field, `must name at least one scope: ${this.tokens.join(', ')}`);
    const tokens = value.split(',').map((t) => t.trim().toLowerCase());
    const unknown = tokens.find((t) => !this.tokens.includes(t));
    if (unknown !== undefined) {
      const shown = unknown === '' ? 'an empty token' : `unknown token "${unknown.slice(0, 40)}"`;
      throw new ValidationError(field, `has ${shown}; allowed: ${this.tokens.join(', ')}`);
    }
    const { write, groups } = this.parse(tokens);
    return [...(write ? ['read', 'write'] : ['read']), ...(groups ?? [])].join(',');
  }

  /** What a stored (canonical) scopes string, or a list of known tokens, allows. */
  parse(scopes: string | readonly string[]): KeyScopes {
    const tokens = typeof scopes === 'string' ? scopes.split(',') : scopes;
    const groups = this.scopedGroups.filter((g) => tokens.includes(g));
    return { write: tokens.includes('write') || tokens.includes('*'), groups: groups.length > 0 ? new Set(groups) : null };
  }

  /** Whether API keys are refused on this group whatever their scopes. */
  refuses(group: string): boolean {
    return this.refusedGroups.includes(group);
  }

  /**
   * 403 unless a key with these scopes may do `action` in `group`: groups closed to keys refuse
   * every key; a write needs `write`; a confined key reaches only its groups.
   */
  assertMayReach(scopes: KeyScopes, group: string, action: 'read' | 'write'): void {
    if (this.refuses(group)) {
      // The group's path, as route-groups.ts spells groups: `super_admin` is served at /super-admin.
      throw new ForbiddenError(`API keys are not accepted on /${group.replaceAll('_', '-')}: sign in with a session token`);
    }
    if (action === 'write' && !scopes.write) throw new ForbiddenError('This API key is read-only: the write scope is required');
    if (scopes.groups && !scopes.groups.has(group)) {
      throw new ForbiddenError(`This API key is not scoped for ${group || 'this endpoint'}: its scopes allow ${[...scopes.groups].join(', ')}`);
    }
  }
}
