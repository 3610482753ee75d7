import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeGroupOf } from '../domains/api-keys/route-groups';
import { budgetKey, type BudgetName, type Limits } from './rate-limits';
import type { Principal, RequestContext } from './request-context';

/** The budgets a route or operation declares; the general one is every request's, the bad-key throttle the credential check's. */
export type DeclaredBudgetName = Exclude<BudgetName, 'general' | 'badKey'>;

/**
 * A budget a REST route (`config.budget`) or a GraphQL query or mutation (`@Budget`) spends on
 * top of the general one. With `key`, it counts under what `key` makes of the validated input
 * (the body, or the operation's arguments: sign-in budgets name the target account with
 * `accountKey`) and is spent once that input is valid. Without, it counts under the budget's own
 * key (`budgetKey`: the caller, or the client address for signup); REST spends it on arrival, with
 * the general budget, so refusals and invalid input count too.
 */
export interface BudgetDeclaration<Input = unknown> {
  name: DeclaredBudgetName;
  // A method, so a declaration reading a particular body or arguments is a `BudgetDeclaration`.
  key?(input: Input, ctx: RequestContext): string;
}

/**
 * The budgets of route groups, as the interface's Limits table states them ("export endpoints",
 * "report endpoints"): every request under the group spends it, on a path no route serves too,
 * unless its route declares its own budget (or `null`, none beyond the general one).
 */
const GROUP_BUDGETS: Partial<Record<string, BudgetDeclaration>> = { exports: { name: 'exports' }, reports: { name: 'reports' } };

/** The budget a REST request spends beyond the general one: its route's declaration, else its group's. */
export function declaredBudgetOf(request: FastifyRequest): BudgetDeclaration | null {
  const declared = request.routeOptions.config?.budget;
  if (declared !== undefined) return declared;
  const group = routeGroupOf(request);
  return (group !== null && GROUP_BUDGETS[group]) || null;
}

/** Whether a declared budget is spent on arrival: its key needs nothing of the input. */
export function spentOnArrival(declaration: BudgetDeclaration): boolean {
  return declaration.key === undefined;
}

/**
 * Spends one request of a declared budget: the one function both doors apply declarations with
 * (the context plugin's hooks for REST, the `@Budget` middleware for GraphQL). `caller` is who
 * the budget's own key names; `input` is what `key` reads. 429 with Retry-After when spent.
 */
export function spendBudget(
  limits: Limits,
  request: FastifyRequest,
  reply: FastifyReply,
  declaration: BudgetDeclaration,
  caller: { principal: Principal | null; clientIp: string },
  input?: unknown,
): Promise<void> {
  const key = declaration.key ? declaration.key(input, request.ctx) : budgetKey(declaration.name, caller);
  return limits.spend(request, reply, declaration.name, key);
}
