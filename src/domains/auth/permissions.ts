import type { RequestContext } from '../../context/request-context';
import { ForbiddenError } from '../../errors/app-error';
import { isCustomerType } from '../users/user.entity';

/**
 * Who may do what, beyond the admin-only operations the interface names. Staff (admins and
 * employees) run the workspace; customers (distributors and retailers) see and place only
 * their own orders. See the README's API notes.
 */

/** True when the caller is a customer (distributor or retailer) signed in with a session. */
export function isCustomer(ctx: RequestContext): boolean {
  const p = ctx.requirePrincipal();
  return p.kind === 'session' && isCustomerType(p.userType);
}

/** Admins and employees pass; customers get 403. */
export function requireStaff(ctx: RequestContext): void {
  if (isCustomer(ctx)) throw new ForbiddenError('Only workspace staff may do this');
}
