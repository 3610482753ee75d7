import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { COST } from '../../graphql/costs';
import { User } from '../users/user.entity';
import { userRowOf } from '../users/user-read';
import { SignupPayload } from './workspace.types';

/** The first admin of a new workspace, as GraphQL shows users: a row. */
@Resolver(() => SignupPayload)
export class SignupPayloadResolver {
  @FieldResolver(() => User, { complexity: COST.relation })
  user(@Root() payload: Pick<SignupPayload, 'user'>, @Ctx() { loaders }: GraphqlContext): Row<User> {
    return userRowOf(payload.user, loaders);
  }
}
