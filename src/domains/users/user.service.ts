import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { findRows } from '../../db/entity-rows';
import { entityList, equalTo, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { hashPassword } from '../auth/passwords';
import * as rules from '../../validation/rules';
import type { LinkAuthService } from '../auth/link-auth.service';
import { isCustomer, requireStaff } from '../auth/permissions';
import { userCreatedData } from '../webhooks/event-data';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { Organization } from '../workspace/organization.entity';
import { organizationRow } from '../workspace/organization-row';
import { Role } from './role.entity';
import { readUsers, userReadOf, type UserProfileRead, type UserRead } from './user-read';
import { assertContactsUnused } from './user-uniqueness';
import { isCustomerType, User, UserType } from './user.entity';
import { ActiveStatus } from '../../db/active-status';
import { sortable } from '../../lists/sort';

/** Filters of the user list. */
export interface UserFilter {
  userType?: UserType;
  status?: ActiveStatus;
  /** Matches first name, last name, e-mail or phone. */
  search?: string;
}

/** A new user, created by an admin. */
export interface CreateUserInput {
  firstName: string;
  lastName: string;
  officialEmail?: string | null;
  primaryContactNumber: string;
  password: string;
  roleId: number;
  userType: UserType;
  storeName?: string | null;
  townId?: number | null;
  routeId?: number | null;
}

const USER_TYPES = [UserType.ADMIN, UserType.EMPLOYEE, UserType.DISTRIBUTOR, UserType.RETAILER];

/** The user list: newest first unless sorted, searched by name, e-mail or phone. */
export const USER_SORT = sortable<keyof User & string>({
  name: 'User',
  fields: { created_at: 'createdAt', first_name: 'firstName', last_name: 'lastName', user_type: 'userType', status: 'status', id: 'id' },
  default: '-created_at',
});
const USER_LIST = entityList({
  entity: User,
  sort: USER_SORT,
  searchIn: ['firstName', 'lastName', 'officialEmail', 'primaryContactNumber'],
});

/** Users of the caller's workspace. */
export class UserService {
  constructor(
    private readonly links: LinkAuthService,
    private readonly events: WebhookEventQueue,
  ) {}

  /** Staff only; newest first. */
  async list(ctx: RequestContext, filter: UserFilter, pageRequest: PageRequest): Promise<Paginated<UserRead>> {
    requireStaff(ctx);
    const page = await readPage(ctx.em, USER_LIST, equalTo<User, UserFilter>(filter, ['userType', 'status']), { ...pageRequest, search: filter.search });
    return { ...page, items: await readUsers(ctx.em, page.items) };
  }

  /** Staff may read anyone of the workspace; to a customer, every other user is not found. */
  async get(ctx: RequestContext, id: number): Promise<UserRead> {
    const visible = !isCustomer(ctx) || ctx.userId === id;
    const [user] = visible ? await findRows(ctx.em, User, { id }) : [];
    if (!user) throw new NotFoundError('User', id);
    const [read] = await readUsers(ctx.em, [user]);
    return read;
  }

  /** A user with the organization they belong to. */
  async profile(ctx: RequestContext, id: number): Promise<UserProfileRead> {
    const read = await this.get(ctx, id);
    return { ...read, organization: await organizationRow(ctx.em, ctx.organizationId) };
  }

  /** The signed-in user's own profile. */
  async me(ctx: RequestContext): Promise<UserProfileRead> {
    return this.profile(ctx, ctx.requireSession().userId);
  }

  /**
   * Admins and API keys (not for administrators). Validates everything before writing; duplicate e-mail or phone is 409. A user
   * with an e-mail address is sent an invite link to choose their own password.
   */
  async create(ctx: RequestContext, input: CreateUserInput): Promise<UserRead> {
    const principal = ctx.requireAdminOrKey();
    const userType = rules.oneOf('userType', input.userType, USER_TYPES);
    if (principal.kind === 'apiKey' && userType === UserType.ADMIN) {
      // A leaked key must not be able to mint an administrator (who could then issue keys).
      throw new ForbiddenError('API keys cannot create administrators; an administrator must do it signed in');
    }
    const data = {
      firstName: rules.requiredText('firstName', input.firstName, 100),
      lastName: rules.requiredText('lastName', input.lastName, 100),
      officialEmail: input.officialEmail ? rules.email('officialEmail', input.officialEmail) : null,
      primaryContactNumber: rules.phone('primaryContactNumber', input.primaryContactNumber),
      password: rules.newPassword('password', input.password),
      storeName: input.storeName ? rules.optionalText('storeName', input.storeName, 200) || null : null,
    };
    if (data.storeName && !isCustomerType(userType)) {
      throw new ValidationError('storeName', 'is only for distributors and retailers');
    }
    const role = await ctx.em.findOne(Role, { id: input.roleId, status: ActiveStatus.ACTIVE });
    if (!role) throw new ValidationError('roleId', 'does not name an active role of this workspace');
    const { town, route } = await this.place(ctx, input.townId ?? null, input.routeId ?? null);
    await assertContactsUnused(ctx.em, data.officialEmail, data.primaryContactNumber);
    const passwordHash = await hashPassword(data.password); // slow on purpose: outside the lock

    const user = await ctx.em.transactional(async (tx) => {
      await this.assertSeatAvailable(tx, ctx.organizationId);
      const created = tx.create(User, { organizationId: ctx.organizationId, ...data, passwordHash, role, userType, town, route });
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'user.created', userCreatedData(created));
      return created;
    });
    this.links.invite(ctx, user);
    return userReadOf(ctx.em, user);
  }

  /** The customer's town and route; a route must lie in the given town (or sets it). */
  private async place(ctx: RequestContext, townId: number | null, routeId: number | null) {
    const town = townId === null ? null : await ctx.em.findOne(Town, { id: townId });
    if (townId !== null && !town) throw new ValidationError('townId', 'does not name a town of this workspace');
    if (routeId === null) return { town, route: null };
    const route = await ctx.em.findOne(Route, { id: routeId }, { populate: ['town'] });
    if (!route) throw new ValidationError('routeId', 'does not name a route of this workspace');
    if (town && route.town.id !== town.id) throw new ValidationError('routeId', 'is not a route of the given town');
    return { town: town ?? route.town, route };
  }

  /**
   * Refuses a new user once the workspace has max_users active users. Locks the organization row
   * until the caller's transaction ends, so concurrent creates cannot overshoot the limit.
   */
  private async assertSeatAvailable(tx: EntityManager, organizationId: number): Promise<void> {
    const organization = await tx.findOneOrFail(Organization, { id: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const active = await tx.count(User, { status: ActiveStatus.ACTIVE });
    if (active >= organization.maxUsers) {
      throw new ValidationError(null, `This workspace has reached its limit of ${organization.maxUsers} active users`);
    }
  }
}
