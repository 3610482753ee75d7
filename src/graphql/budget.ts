import { createMethodMiddlewareDecorator } from 'type-graphql';
import type { BudgetDeclaration, DeclaredBudgetName } from '../context/budgets';
import type { RequestContext } from '../context/request-context';
import type { GraphqlContext } from './context';

/**
 * Declares the budget a query or mutation spends on top of the general one, as REST routes do in
 * `config.budget`: `key` makes the budget's key of the operation's arguments (sign-in: the target
 * account); without it the budget's own key applies (the caller, or the address for signup).
 * Spent once per root field that selects the operation (aliases and repeats included), after
 * `@Authorized` and just before the resolver runs, so a refused field spends nothing and a spent
 * budget refuses only its own field.
 */
export function Budget<Args = never>(name: DeclaredBudgetName, key?: (args: Args, ctx: RequestContext) => string): MethodDecorator {
  const declaration: BudgetDeclaration<Args> = key ? { name, key } : { name };
  return createMethodMiddlewareDecorator<GraphqlContext>(async ({ args, context }, next) => {
    await context.spendBudget(declaration, args);
    return next();
  });
}
