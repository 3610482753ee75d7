import type { RequestContext } from '../../context/request-context';
import { UserType } from '../users/user.entity';

/** The signed-in employee's id when the caller is an employee (who sees only their own targets), else null. */
export function ownUserId(ctx: RequestContext): number | null {
  const principal = ctx.requirePrincipal();
  return principal.kind === 'session' && principal.userType === UserType.EMPLOYEE ? principal.userId : null;
}
