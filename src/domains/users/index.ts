import type DataLoader from 'dataloader';
import type { EntityRecord } from '../../db/entity-records';
import { byId } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { Role } from './role.entity';
import { User } from './user.entity';
import { UserResolver } from './user.resolver';
import { UserService } from './user.service';

declare module '../domain-module' {
  interface Services {
    users: UserService;
  }
  interface Loaders {
    user: DataLoader<number, EntityRecord<User> | null>;
    role: DataLoader<number, EntityRecord<Role> | null>;
  }
}

/** The workspace's people: admins, employees, distributors and retailers, and their roles. */
export const usersDomain = defineDomain({
  name: 'users',
  entities: [Role, User],
  services: ({ services }) => ({ users: new UserService(services.linkAuth, services.webhookEvents) }),
  resolvers: [UserResolver],
  loaders: ({ ctx, selection }) => ({ user: byId(ctx.em, User, selection), role: byId(ctx.em, Role, selection) }),
  routeGroups: { users: 'scoped' },
  webhookEvents: ['user.created'],
});
