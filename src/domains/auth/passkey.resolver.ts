import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { signInPayload } from './auth.resolver';
import { SignInPayload } from './auth.types';
import { Passkey } from './passkey.entity';
import { ASSUMED_LENGTH, COST, listCost } from '../../graphql/costs';

/** Passkeys over the same service as REST; WebAuthn options and responses travel as JSON objects. */
@Resolver()
export class PasskeyResolver {
  @Authorized()
  @InGroup('auth')
  @Query(() => [Passkey], { complexity: listCost(COST.record, ASSUMED_LENGTH.passkeys), description: "The signed-in user's passkeys, newest first." })
  passkeys(@Ctx() { ctx, services }: GraphqlContext): Promise<Array<Row<Passkey>>> {
    return services.passkeys.list(ctx);
  }

  @Authorized()
  @InGroup('auth')
  @Mutation(() => GraphQLJSONObject, { complexity: COST.write, description: 'Creation options for navigator.credentials.create().' })
  passkeyRegistrationOptions(@Ctx() { ctx, services }: GraphqlContext): Promise<object> {
    return services.passkeys.registrationOptions(ctx);
  }

  @Authorized()
  @InGroup('auth')
  @Mutation(() => Passkey, { complexity: COST.write, description: "Registers the browser's new credential (the JSON of @simplewebauthn/browser)." })
  registerPasskey(
    @Arg('response', () => GraphQLJSONObject) response: object,
    @Arg('name', () => String, { nullable: true }) name: string | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<Passkey>> {
    return services.passkeys.register(ctx, response as RegistrationResponseJSON, name);
  }

  @Authorized()
  @InGroup('auth')
  @Mutation(() => Boolean, { complexity: COST.write, description: 'Removes one of your passkeys.' })
  async removePasskey(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.passkeys.remove(ctx, id);
    return true;
  }

  @InGroup('auth')
  @Mutation(() => GraphQLJSONObject, { complexity: COST.write, description: 'Request options for navigator.credentials.get() (discoverable passkeys).' })
  passkeyLoginOptions(@Ctx() { services }: GraphqlContext): Promise<object> {
    return services.passkeys.loginOptions();
  }

  @InGroup('auth')
  @Mutation(() => SignInPayload, { complexity: COST.write, description: 'Signs in with a passkey assertion.' })
  async loginWithPasskey(@Arg('response', () => GraphQLJSONObject) response: object, @Ctx() { ctx, services }: GraphqlContext): Promise<SignInPayload> {
    return signInPayload(await services.passkeys.login(ctx, response as AuthenticationResponseJSON));
  }
}
