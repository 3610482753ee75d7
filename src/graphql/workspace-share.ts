import type { RequestContext } from '../context/request-context';

/**
 * Whose share of the execution slots (and of the heavy-operation slots) a request takes: its
 * workspace's, or without a credential its client address's.
 */
export function workspaceShareOf(ctx: Pick<RequestContext, 'principal' | 'clientIp'>): string {
  return ctx.principal ? `workspace:${ctx.principal.organizationId}` : `ip:${ctx.clientIp}`;
}
