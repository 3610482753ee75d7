import type { RequestContext } from '../../context/request-context';
import { ForbiddenError } from '../../errors/app-error';
import { requireStaff } from '../auth/permissions';
import { UserType } from '../users/user.entity';

/**
 * Whose figures a caller may report on. Admins and API keys (with the `reports` scope): anyone's,
 * `userId` as asked. Employees: only their own, so `userId` is themselves whether or not they send
 * it, and another user's id is a 403 (`refusal`). Customers: 403.
 */
function reportedUser(ctx: RequestContext, userId: number | null | undefined, refusal: string): number | null {
  requireStaff(ctx);
  const principal = ctx.requirePrincipal();
  if (principal.kind !== 'session' || principal.userType !== UserType.EMPLOYEE) return userId ?? null;
  if (userId != null && userId !== principal.userId) throw new ForbiddenError(refusal);
  return principal.userId;
}

/** The booker a sales report is about (see reportedUser). */
export const reportedBooker = (ctx: RequestContext, userId: number | null | undefined) => reportedUser(ctx, userId, 'Employees see only the orders they booked');

/** The employee a beat-productivity report is about (see reportedUser). */
export const reportedEmployee = (ctx: RequestContext, userId: number | null | undefined) => reportedUser(ctx, userId, 'Employees see only their own productivity');
