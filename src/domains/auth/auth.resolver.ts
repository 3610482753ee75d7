import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import { User } from '../users/user.entity';
import { SignupInput, SignupPayload } from '../workspace/workspace.types';

@Resolver()
export class AuthResolver {
  @Mutation(() => SignupPayload, { description: 'Creates a workspace, its settings, its roles and its first admin.' })
  async signup(@Arg('input', () => SignupInput) input: SignupInput, @Ctx() { ctx, services, spend }: GraphqlContext): Promise<SignupPayload> {
    await spend('signup');
    const { token, user, organization } = await services.signup.register(ctx.em, input);
    return { token, user, workspace: organization };
  }

  @Authorized()
  @Query(() => User, { description: 'The signed-in user.' })
  async me(@Ctx() { ctx, services }: GraphqlContext): Promise<User> {
    return (await services.users.me(ctx)).user;
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Ends the current session; its token stops working at once.' })
  async logout(@Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.sessions.end(ctx);
    return true;
  }
}
