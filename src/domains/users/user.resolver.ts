import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { Row } from '../../db/entity-rows';
import { userRowOf } from './user-read';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { Role } from './role.entity';
import { User } from './user.entity';
import { ActiveStatus } from '../../db/active-status';
import { CreateUserInput, PasswordResetSent, UpdateUserInput, UserListArgs } from './user.types';
import { COST, pageCost } from '../../graphql/costs';

const UserPage = PageOf(User, 'User');

// Authorized per operation, not per class: the field resolvers below must also serve the user
// that the public signup mutation returns.
@Resolver(() => User)
export class UserResolver {
  @Authorized()
  @InGroup('users')
  @Query(() => UserPage, { complexity: pageCost(), description: 'Users of the workspace, newest first (staff only).' })
  async users(@Args(() => UserListArgs) args: UserListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<User>>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.users.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => userRowOf(read, loaders)) });
  }

  @Authorized()
  @InGroup('users')
  @Query(() => User, { complexity: COST.record })
  async user(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<User>> {
    return userRowOf(await services.users.get(ctx, id), loaders);
  }

  @Authorized()
  @InGroup('users')
  @Mutation(() => User, { complexity: COST.password, description: 'Admins only.' })
  async createUser(@Arg('input', () => CreateUserInput) input: CreateUserInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<User>> {
    return userRowOf(await services.users.create(ctx, input), loaders);
  }

  @Authorized()
  @InGroup('users')
  @Mutation(() => User, { complexity: COST.write, description: 'Admins and API keys. Omitted fields stay; the same rules as PUT /users/{id}.' })
  async updateUser(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateUserInput) input: UpdateUserInput,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<User>> {
    return userRowOf(await services.users.update(ctx, id, input), loaders);
  }

  @Authorized()
  @InGroup('users')
  @Mutation(() => User, {
    complexity: COST.write,
    description: 'Admins and API keys. INACTIVE ends the user’s session and keeps their orders; not yourself nor the last active admin. ACTIVE takes a seat of the user limit.',
  })
  async setUserStatus(
    @Arg('id', () => Int) id: number,
    @Arg('status', () => ActiveStatus) status: ActiveStatus,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<User>> {
    return userRowOf(await services.users.setStatus(ctx, id, status), loaders);
  }

  @Authorized()
  @InGroup('users')
  @Mutation(() => PasswordResetSent, {
    complexity: COST.write,
    description: 'Admins and API keys. E-mails the user a link to choose a new password (valid 1 hour); never sets one.',
  })
  async sendUserPasswordReset(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<PasswordResetSent> {
    return services.users.sendPasswordReset(ctx, id);
  }

  @FieldResolver(() => Role, { complexity: COST.relation })
  role(@Root() user: Row<User>, @Ctx() { loaders }: GraphqlContext): Related<Row<Role>> {
    return loaders.role.load(user.role);
  }

  @FieldResolver(() => Town, { complexity: COST.relation, nullable: true })
  town(@Root() user: Row<User>, @Ctx() { loaders }: GraphqlContext): Related<Row<Town>> {
    return loaders.town.load(user.town);
  }

  @FieldResolver(() => Route, { complexity: COST.relation, nullable: true })
  route(@Root() user: Row<User>, @Ctx() { loaders }: GraphqlContext): Related<Row<Route>> {
    return loaders.route.load(user.route);
  }
}
