import { ForbiddenError, ValidationError } from '../../errors/app-error';
import { isKeyRefusedGroup, RESOURCE_GROUPS, type ResourceGroup } from './route-groups';

/** What a key's scopes allow: reading always, writing with `write` or `*`, and optionally only some groups. */
export interface KeyScopes {
  write: boolean;
  /** The groups the key is confined to; null reaches every group open to keys. */
  groups: ReadonlySet<ResourceGroup> | null;
}

/** Scopes of a key created without any. */
export const DEFAULT_SCOPES = 'read';

const ACTION_TOKENS = ['read', 'write', '*'];

/** Every token a scopes string may hold, for messages and docs. */
export const SCOPE_TOKENS: readonly string[] = [...ACTION_TOKENS, ...RESOURCE_GROUPS];

/** What a list of known tokens allows. */
function scopesOf(tokens: readonly string[]): KeyScopes {
  const groups = RESOURCE_GROUPS.filter((g) => tokens.includes(g));
  return { write: tokens.includes('write') || tokens.includes('*'), groups: groups.length > 0 ? new Set(groups) : null };
}

/**
 * Checks a comma-separated scopes string and returns its canonical spelling: tokens lower-cased,
 * `*` spelt `read,write`, duplicates dropped, actions first, groups in RESOURCE_GROUPS order.
 * Unknown or empty tokens are a 400.
 */
export function normalizeScopes(field: string, value: string | null | undefined): string {
  if (value == null) return DEFAULT_SCOPES;
  if (value.trim() === '') throw new ValidationError(field, `must name at least one scope: ${SCOPE_TOKENS.join(', ')}`);
  const tokens = value.split(',').map((t) => t.trim().toLowerCase());
  const unknown = tokens.find((t) => !SCOPE_TOKENS.includes(t));
  if (unknown !== undefined) {
    const shown = unknown === '' ? 'an empty token' : `unknown token "${unknown.slice(0, 40)}"`;
    throw new ValidationError(field, `has ${shown}; allowed: ${SCOPE_TOKENS.join(', ')}`);
  }
  const { write, groups } = scopesOf(tokens);
  return [...(write ? ['read', 'write'] : ['read']), ...(groups ?? [])].join(',');
}

/** What a stored (canonical) scopes string allows. */
export function parseScopes(scopes: string): KeyScopes {
  return scopesOf(scopes.split(','));
}

/** `read` permits GET and HEAD; every other method needs `write`. */
export function isReadMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * 403 unless a key with these scopes may do `action` in `group`: groups closed to keys refuse
 * every key; a write needs `write`; a confined key reaches only its groups.
 */
export function assertKeyMayReach(scopes: KeyScopes, group: string, action: 'read' | 'write'): void {
  if (isKeyRefusedGroup(group)) {
    throw new ForbiddenError(`API keys are not accepted on /${group}: sign in with a session token`);
  }
  if (action === 'write' && !scopes.write) throw new ForbiddenError('This API key is read-only: the write scope is required');
  if (scopes.groups && !scopes.groups.has(group as ResourceGroup)) {
    throw new ForbiddenError(`This API key is not scoped for ${group || 'this endpoint'}: its scopes allow ${[...scopes.groups].join(', ')}`);
  }
}
