import type { Row } from '../../db/entity-rows';
import { byId, type RowLoader } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { Role } from './role.entity';
import { User } from './user.entity';
import { UserResolver } from './user.resolver';
import { UserService } from './user.service';
import { usersExport } from './users.export';

declare module '../domain-module' {
  interface Services {
    users: UserService;
  }
  interface Loaders {
    user: RowLoader<Row<User>>;
    role: RowLoader<Row<Role>>;
  }
}

/** The workspace's people: admins, employees, distributors and retailers, and their roles. */
export const usersDomain = defineDomain({
  name: 'users',
  entities: [Role, User],
  services: ({ services }) => ({ users: new UserService(services.linkAuth, services.webhookEvents) }),
  resolvers: [UserResolver],
  loaders: ({ ctx, columns }) => ({ user: byId(ctx.em, User, columns), role: byId(ctx.em, Role, columns) }),
  exports: [usersExport],
  routeGroups: { users: 'scoped' },
  webhookEvents: ['user.created', 'user.updated'],
});
