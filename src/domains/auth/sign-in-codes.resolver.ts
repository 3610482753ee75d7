import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { accountKey } from '../../context/rate-limits';
import { Budget } from '../../graphql/budget';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { signInPayload } from './auth.resolver';
import { CodeSentPayload, DesktopCodePayload, SignInPayload } from './auth.types';
import { LinkPurpose } from './link-purpose';
import { COST } from '../../graphql/costs';

/** SMS codes, magic links, set-password links and the desktop hand-off, over the same services as REST. */
@Resolver()
export class SignInCodesResolver {
  @InGroup('auth')
  @Budget('signIn', ({ phone }: { phone: string }) => accountKey({ phone }))
  @Mutation(() => CodeSentPayload, { complexity: COST.write, description: 'Texts a 6-digit code (valid 5 minutes) to the phone of an active account.' })
  async requestOtp(@Arg('phone') phone: string, @Ctx() { ctx, services }: GraphqlContext): Promise<CodeSentPayload> {
    await services.otpAuth.request(ctx, phone);
    return { message: 'If this number belongs to an active account, a sign-in code has been sent to it' };
  }

  @InGroup('auth')
  @Budget('signIn', ({ phone }: { phone: string }) => accountKey({ phone }))
  @Mutation(() => SignInPayload, { complexity: COST.write, description: 'Signs in with the SMS code. Every failure answers the same.' })
  async verifyOtp(@Arg('phone') phone: string, @Arg('otp') otp: string, @Ctx() { ctx, services }: GraphqlContext): Promise<SignInPayload> {
    return signInPayload(await services.otpAuth.verify(ctx, phone, otp));
  }

  @InGroup('auth')
  @Budget('signIn', ({ email }: { email: string }) => accountKey({ email }))
  @Mutation(() => CodeSentPayload, { complexity: COST.write, description: 'E-mails a single-use sign-in link, or a link to set a new password.' })
  async requestMagicLink(
    @Arg('email') email: string,
    @Arg('purpose', () => LinkPurpose, { defaultValue: LinkPurpose.SIGN_IN }) purpose: LinkPurpose,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<CodeSentPayload> {
    await services.linkAuth.request(ctx, email, purpose);
    return { message: 'If this address belongs to an active account, a link has been sent to it' };
  }

  @InGroup('auth')
  @Mutation(() => SignInPayload, { complexity: COST.write, description: 'Signs in with the token of a magic link.' })
  async verifyMagicLink(@Arg('token') token: string, @Ctx() { ctx, services }: GraphqlContext): Promise<SignInPayload> {
    return signInPayload(await services.linkAuth.verify(ctx, token));
  }

  @InGroup('auth')
  @Mutation(() => Boolean, { complexity: COST.password, description: 'Sets a password from an invite or reset link. Ends any session; signs nobody in.' })
  async setPasswordFromLink(@Arg('token') token: string, @Arg('password') password: string, @Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.linkAuth.setPassword(ctx, token, password);
    return true;
  }

  @Authorized()
  @InGroup('auth')
  @Mutation(() => DesktopCodePayload, { complexity: COST.write, description: "Mints a single-use code (2 minutes) bound to base64url(SHA-256(state)) of the desktop app." })
  async createDesktopCode(@Arg('stateHash') stateHash: string, @Ctx() { ctx, services }: GraphqlContext): Promise<DesktopCodePayload> {
    const { secret, expiresAt } = await services.desktopHandoff.createCode(ctx, stateHash);
    return { code: secret, expiresAt };
  }

  @InGroup('auth')
  @Mutation(() => SignInPayload, { complexity: COST.write, description: "Exchanges a desktop code and the app's own state for a session." })
  async exchangeDesktopCode(@Arg('code') code: string, @Arg('state') state: string, @Ctx() { ctx, services }: GraphqlContext): Promise<SignInPayload> {
    return signInPayload(await services.desktopHandoff.exchange(ctx, code, state));
  }
}
