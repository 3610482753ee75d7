import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { COST } from '../../graphql/costs';
import { User } from '../users/user.entity';
import { userRowOf } from '../users/user-read';
import { SignInPayload } from './auth.types';

/** The user of a new session, as GraphQL shows users: a row. */
@Resolver(() => SignInPayload)
export class SignInPayloadResolver {
  @FieldResolver(() => User, { complexity: COST.relation })
  user(@Root() payload: Pick<SignInPayload, 'user'>, @Ctx() { loaders }: GraphqlContext): Row<User> {
    return userRowOf(payload.user, loaders);
  }
}
