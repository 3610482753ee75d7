import { randomUUID } from 'node:crypto';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { Passkey } from '../auth/passkey.entity';
import { SignInCode } from '../auth/sign-in-code.entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ACTIVE_STATUSES, ActiveStatus } from '../../db/active-status';
import type { RequestContext } from '../../context/request-context';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error';
import { findRows } from '../../db/entity-rows';
import { entityList, equalTo, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { hashPassword } from '../auth/passwords';
import * as rules from '../../validation/rules';
import type { LinkAuthService } from '../auth/link-auth.service';
import { isCustomer, requireStaff } from '../auth/permissions';
import { userCreatedData, userUpdatedData } from '../webhooks/event-data';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';
import { ownRecordId } from '../../lists/own-record-filter';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { organizationRow } from '../workspace/organization-row';
import { Role } from './role.entity';
import { readUsers, userReadOf, type UserProfileRead, type UserRead } from './user-read';
import { checkUserChanges, USER_TYPES, type UpdateUserInput } from './user-edits';
import { userPlace } from './user-place';
import { assertTypeChangeAllowed } from './user-type-change';
import { assertContactsUnused } from './user-uniqueness';
import { isCustomerType, User, UserType } from './user.entity';
import { sortable } from '../../lists/sort';
import { assertAnotherActiveAdmin, assertSeatAvailable, lockOrganization } from './workspace-seats';

export type { UpdateUserInput } from './user-edits';

/** The contact details a user changes on their own profile. */
export type OwnContactInput = Pick<UpdateUserInput, 'firstName' | 'lastName' | 'officialEmail' | 'primaryContactNumber' | 'storeName'>;

/** Filters of the user list. */
export interface UserFilter {
  userType?: UserType;
  status?: ActiveStatus;
  /** Matches first name, last name, e-mail or phone. */
  search?: string;
  /** Each names a record of the workspace (else 400 naming it). */
  roleId?: number;
  townId?: number;
  routeId?: number;
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

const NO_ADMINS_BY_KEY = 'API keys cannot create administrators; an administrator must do it signed in';

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
    const where = equalTo<User, UserFilter>(filter, ['userType', 'status']) as Record<string, unknown>;
    if (filter.roleId != null) where.role = await ownRecordId(ctx.em, Role, 'roleId', filter.roleId);
    if (filter.townId != null) where.town = await ownRecordId(ctx.em, Town, 'townId', filter.townId);
    if (filter.routeId != null) where.route = await ownRecordId(ctx.em, Route, 'routeId', filter.routeId);
    const page = await readPage(ctx.em, USER_LIST, where as FilterQuery<User>, { ...pageRequest, search: filter.search });
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
      throw new ForbiddenError(NO_ADMINS_BY_KEY);
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
    const { town, route } = await userPlace(ctx.em, input.townId ?? null, input.routeId ?? null);
    await assertContactsUnused(ctx.em, data.officialEmail, data.primaryContactNumber);
    const passwordHash = await hashPassword(data.password); // slow on purpose: outside the lock

    const user = await ctx.em.transactional(async (tx) => {
      await assertSeatAvailable(tx, await lockOrganization(tx, ctx.organizationId));
      const created = tx.create(User, { organizationId: ctx.organizationId, ...data, passwordHash, role, userType, town, route });
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'user.created', userCreatedData(created));
      return created;
    });
    this.links.invite(ctx, user);
    return userReadOf(ctx.em, user);
  }

  /**
   * Admins and API keys. Changes the given fields (any of create's but the password); omitted ones
   * stay. Checked in full before anything is written: 400 naming the field, 409 for a used e-mail or
   * phone and for the user_type rule (assertTypeChangeAllowed), and for demoting the last active
   * admin. API keys cannot make an administrator nor change one (an e-mail changed by a leaked key
   * would let its holder reset the admin's password). Emits user.updated when something changed.
   */
  async update(ctx: RequestContext, id: number, input: UpdateUserInput): Promise<UserRead> {
    const byKey = ctx.requireAdminOrKey().kind === 'apiKey';
    if (byKey && input.userType === UserType.ADMIN) throw new ForbiddenError('API keys cannot make a user an administrator; an administrator must do it signed in');
    await ctx.em.transactional(async (tx) => {
      await lockOrganization(tx, ctx.organizationId);
      const user = await this.lockedUser(tx, id);
      if (byKey && user.userType === UserType.ADMIN) throw new ForbiddenError('API keys cannot change an administrator; an administrator must do it signed in');
      const { values, changed } = await checkUserChanges(tx, user, input);
      if (values.userType !== undefined && values.userType !== user.userType) {
        await assertTypeChangeAllowed(tx, user, values.userType);
        if (user.userType === UserType.ADMIN) await assertAnotherActiveAdmin(tx, id, 'change the type of');
      }
      // The user's own e-mail and phone, sent again unchanged, are no conflict.
      await assertContactsUnused(tx, values.officialEmail ?? null, values.primaryContactNumber ?? null, { exceptUserId: id });
      if (changed.length === 0) return;
      tx.assign(user, values);
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'user.updated', userUpdatedData(user, changed));
    });
    return this.get(ctx, id);
  }

  /**
   * Admins and API keys. Deactivating (0) ends the user's session at once and keeps their orders
   * and history; an admin cannot deactivate themselves nor the last active admin (409). Reactivating
   * (1) takes a seat of max_users, like a create. Setting the status a user has changes nothing.
   */
  async setStatus(ctx: RequestContext, id: number, status: ActiveStatus): Promise<UserRead> {
    ctx.requireAdminOrKey();
    const next = rules.oneOf('status', status, ACTIVE_STATUSES);
    if (next === ActiveStatus.INACTIVE && ctx.userId === id) {
      throw new ConflictError('You cannot deactivate your own account; another administrator can');
    }
    await ctx.em.transactional(async (tx) => {
      const organization = await lockOrganization(tx, ctx.organizationId);
      const user = await this.lockedUser(tx, id);
      if (user.status === next) return;
      if (next === ActiveStatus.INACTIVE) {
        if (user.userType === UserType.ADMIN) await assertAnotherActiveAdmin(tx, id, 'deactivate');
        // Ended rather than only refused while inactive: a reactivated user signs in afresh.
        user.currentSessionId = null;
      } else {
        await assertSeatAvailable(tx, organization);
      }
      user.status = next;
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'user.updated', userUpdatedData(user, ['status']));
    });
    return this.get(ctx, id);
  }

  /**
   * Admins and API keys. E-mails the user a single-use link to choose a new password (the
   * existing reset link, valid 1 hour); never sets one. 409 for a user without e-mail or inactive.
   * The e-mail goes out after the answer (hence REST's 202); returns the address it goes to.
   */
  async sendPasswordReset(ctx: RequestContext, id: number): Promise<{ userId: number; sentTo: string; message: string }> {
    ctx.requireAdminOrKey();
    const user = await ctx.em.findOne(User, { id });
    if (!user) throw new NotFoundError('User', id);
    if (!user.officialEmail) throw new ConflictError('This user has no e-mail address to send a reset link to; give them one first');
    if (user.status !== ActiveStatus.ACTIVE) throw new ConflictError('This user is inactive; reactivate them before sending a password reset link');
    this.links.sendPasswordReset(ctx, user);
    return { userId: user.id, sentTo: user.officialEmail, message: `A password reset link is being e-mailed to ${user.officialEmail}` };
  }

  /**
   * The signed-in user's own contact details (the customer portal's profile): names, e-mail, phone
   * and store name, checked as an administrator's update checks them (400 naming the field, 409 for
   * a used e-mail or phone); emits user.updated when something changed.
   */
  async updateOwnContact(ctx: RequestContext, input: OwnContactInput): Promise<UserRead> {
    const id = ctx.requireSession().userId;
    const only: UpdateUserInput = {
      firstName: input.firstName, lastName: input.lastName, officialEmail: input.officialEmail,
      primaryContactNumber: input.primaryContactNumber, storeName: input.storeName,
    };
    await ctx.em.transactional(async (tx) => {
      const user = await this.lockedUser(tx, id);
      const { values, changed } = await checkUserChanges(tx, user, only);
      await assertContactsUnused(tx, values.officialEmail ?? null, values.primaryContactNumber ?? null, { exceptUserId: id });
      if (changed.length === 0) return;
      tx.assign(user, values);
      await tx.flush();
      await this.events.emit(tx, ctx.organizationId, 'user.updated', userUpdatedData(user, changed));
    });
    return this.get(ctx, id);
  }

  /**
   * Deletes the signed-in customer's account as app stores require (README, Customer portal): the
   * personal data is erased (name "Deleted customer #id", no e-mail, the phone a unique placeholder,
   * no store name), the password unusable, the account inactive with its session ended; its sign-in
   * codes and links and its passkeys are deleted. Orders, ledger and crate rows stay for the
   * workspace's books, naming the anonymised account. Emits user.updated. Customers only (403).
   */
  async deleteOwnAccount(ctx: RequestContext): Promise<{ userId: number }> {
    const id = ctx.requireSession().userId;
    if (!isCustomer(ctx)) throw new ForbiddenError('Only distributors and retailers delete their own account here');
    await ctx.em.transactional(async (tx) => {
      const user = await this.lockedUser(tx, id);
      await tx.populate(user, ['passwordHash']);
      Object.assign(user, {
        firstName: 'Deleted customer',
        lastName: `#${id}`,
        officialEmail: null,
        primaryContactNumber: `deleted-${id}`,
        storeName: null,
        // Not a hash any password can match (argon2/bcrypt hashes start with "$").
        passwordHash: `!deleted:${randomUUID()}`,
        status: ActiveStatus.INACTIVE,
        currentSessionId: null,
        failedSignIns: 0,
        lockedUntil: null,
      });
      await tx.flush();
      await tx.nativeDelete(SignInCode, { user: id });
      await tx.nativeDelete(Passkey, { user: id });
      const changed = ['first_name', 'last_name', 'official_email', 'primary_contact_number', 'store_name', 'status'];
      await this.events.emit(tx, ctx.organizationId, 'user.updated', userUpdatedData(user, changed));
    });
    return { userId: id };
  }

  /**
   * The workspace's user, its row locked until the transaction ends; 404 otherwise. Only its own
   * row: a populated role would be joined into the FOR UPDATE and lock the role row shared by every
   * user of that role. So its role, town and route are bare references, and callers answer with
   * `get` (which reads them), not `userReadOf` (whose role row would have no name: a 500 in the
   * response serializer).
   */
  private async lockedUser(tx: EntityManager, id: number): Promise<User> {
    const user = await tx.findOne(User, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!user) throw new NotFoundError('User', id);
    return user;
  }
}
