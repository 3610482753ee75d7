import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { accountKey } from '../../context/rate-limits';
import { Budget } from '../../graphql/budget';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import type { Row } from '../../db/entity-rows';
import { User } from '../users/user.entity';
import { userRowOf } from '../users/user-read';
import { SignupInput, SignupPayload } from '../workspace/workspace.types';
import { LoginInput, SignInPayload } from './auth.types';
import type { SignInResult } from './sign-in-session';
import { COST } from '../../graphql/costs';

/** The GraphQL shape of a sign-in. */
export function signInPayload({ token, organization, modules, ...user }: SignInResult): SignInPayload {
  return { token, user, workspace: organization, modules };
}

@Resolver()
export class AuthResolver {
  @InGroup('signup')
  @Budget('signup')
  @Mutation(() => SignupPayload, { complexity: COST.password, description: 'Creates a workspace, its settings, its roles and its first admin.' })
  async signup(@Arg('input', () => SignupInput) input: SignupInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SignupPayload> {
    const { token, organization, ...user } = await services.signup.register(ctx.em, input);
    return { token, user, workspace: organization };
  }

  @InGroup('auth')
  @Query(() => GraphQLJSONObject, {
    complexity: COST.record,
    nullable: true,
    description: 'A bot-check challenge for the ALTCHA widget (null when the provider issues its own).',
  })
  authChallenge(@Ctx() { services }: GraphqlContext): Promise<object | null> {
    return services.passwordAuth.challenge();
  }

  @InGroup('auth')
  @Budget('signIn', ({ input }: { input: LoginInput }) => accountKey({ email: input.email }))
  @Mutation(() => SignInPayload, { complexity: COST.password, description: 'Password sign-in behind the bot-check. Five failures lock the account for 30 minutes.' })
  async login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SignInPayload> {
    return signInPayload(await services.passwordAuth.login(ctx, input));
  }

  @Authorized()
  @InGroup('auth')
  @Budget('signIn', (_args, ctx) => accountKey({ userId: ctx.requireSession().userId }))
  @Mutation(() => String, { complexity: COST.password, description: 'Changes the password; returns a new session token, and every earlier one stops working.' })
  async changePassword(
    @Arg('currentPassword') currentPassword: string,
    @Arg('newPassword') newPassword: string,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<string> {
    return services.passwordAuth.changePassword(ctx, currentPassword, newPassword);
  }

  @Authorized()
  @InGroup('auth')
  @Query(() => User, { complexity: COST.me, description: 'The signed-in user.' })
  async me(@Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<User>> {
    return userRowOf(await services.users.me(ctx), loaders);
  }

  @Authorized()
  @InGroup('auth')
  @Mutation(() => Boolean, {
    complexity: COST.write,
    description: 'Ends the current session; its token stops working at once. The user’s device tokens of `app` (all of them when none is named) are unregistered first.',
  })
  async logout(@Arg('app', () => String, { nullable: true, description: 'portal, driver or field' }) app: string | null, @Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.notifications.unregisterAtLogout(ctx, app);
    await services.sessions.end(ctx);
    return true;
  }
}
