import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import { related, type Related, type Resolvable } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { Role } from './role.entity';
import { User } from './user.entity';
import { CreateUserInput, UserListArgs } from './user.types';
import { COST, pageCost } from '../../graphql/costs';

const UserPage = PageOf(User, 'User');

// Authorized per operation, not per class: the field resolvers below must also serve the user
// that the public signup mutation returns.
@Resolver(() => User)
export class UserResolver {
  @Authorized()
  @InGroup('users')
  @Query(() => UserPage, { complexity: pageCost(), description: 'Users of the workspace, newest first (staff only).' })
  async users(@Args(() => UserListArgs) args: UserListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<User>> {
    const { page, limit, ...filter } = args;
    return toPage(await services.users.list(ctx, filter, { page, limit }));
  }

  @Authorized()
  @InGroup('users')
  @Query(() => User, { complexity: COST.record })
  async user(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<User> {
    return services.users.get(ctx, id);
  }

  @Authorized()
  @InGroup('users')
  @Mutation(() => User, { complexity: COST.password, description: 'Admins only.' })
  createUser(@Arg('input', () => CreateUserInput) input: CreateUserInput, @Ctx() { ctx, services }: GraphqlContext): Promise<User> {
    return services.users.create(ctx, input);
  }

  @FieldResolver(() => Role, { complexity: COST.relation })
  role(@Root() user: Resolvable<User>, @Ctx() { loaders }: GraphqlContext): Related<Role> {
    return related(user.role, loaders.role);
  }

  @FieldResolver(() => Town, { complexity: COST.relation, nullable: true })
  town(@Root() user: Resolvable<User>, @Ctx() { loaders }: GraphqlContext): Related<Town> {
    return related(user.town, loaders.town);
  }

  @FieldResolver(() => Route, { complexity: COST.relation, nullable: true })
  route(@Root() user: Resolvable<User>, @Ctx() { loaders }: GraphqlContext): Related<Route> {
    return related(user.route, loaders.route);
  }
}
