import type { RequestContext } from '../../context/request-context';
import { ForbiddenError } from '../../errors/app-error';
import { requireStaff } from '../auth/permissions';
import { UserType } from '../users/user.entity';

/**
 * Whose bookings a caller may report on. Admins and API keys (with the `reports` scope): anyone's,
 * `userId` as asked. Employees: only their own, so `userId` is themselves whether or not they send
 * it, and another user's id is a 403. Customers: 403.
 */
export function reportedBooker(ctx: RequestContext, userId: number | null | undefined): number | null {
  requireStaff(ctx);
  const principal = ctx.requirePrincipal();
  if (principal.kind !== 'session' || principal.userType !== UserType.EMPLOYEE) return userId ?? null;
  if (userId != null && userId !== principal.userId) throw new ForbiddenError('Employees see only the orders they booked');
  return principal.userId;
}
