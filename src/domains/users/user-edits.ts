import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { Role } from './role.entity';
import { userPlace } from './user-place';
import { isCustomerType, User, UserType } from './user.entity';

/** Every user_type code. */
export const USER_TYPES = [UserType.ADMIN, UserType.EMPLOYEE, UserType.DISTRIBUTOR, UserType.RETAILER];

/**
 * A change to a user (any field of create but the password): omitted (or, for the required
 * fields, null) fields stay; null clears officialEmail, storeName, townId and routeId.
 */
export interface UpdateUserInput {
  firstName?: string | null;
  lastName?: string | null;
  officialEmail?: string | null;
  primaryContactNumber?: string | null;
  roleId?: number | null;
  userType?: UserType | null;
  storeName?: string | null;
  townId?: number | null;
  routeId?: number | null;
}

/** The user columns an update writes; relations by id. */
export interface UserValues {
  firstName?: string;
  lastName?: string;
  officialEmail?: string | null;
  primaryContactNumber?: string;
  role?: number;
  userType?: UserType;
  storeName?: string | null;
  town?: number | null;
  route?: number | null;
}

/** The checked values of an update and the fields (snake_case, as webhooks name them) whose value they change. */
export interface UserChanges {
  values: UserValues;
  changed: string[];
}

const FIELD_NAMES: Record<keyof UserValues, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  officialEmail: 'official_email',
  primaryContactNumber: 'primary_contact_number',
  role: 'role_id',
  userType: 'user_type',
  storeName: 'store_name',
  town: 'town_id',
  route: 'route_id',
};

const idOf = (entity: { id: number } | null) => entity?.id ?? null;

/**
 * Checks an update of `user` field by field (a 400 names the first bad one) and returns the values
 * to write; reads the role, town and route it names through `em` (tenant-filtered). Nothing is written.
 */
export async function checkUserChanges(em: EntityManager, user: User, input: UpdateUserInput): Promise<UserChanges> {
  const values: UserValues = {};
  if (input.firstName != null) values.firstName = rules.requiredText('firstName', input.firstName, 100);
  if (input.lastName != null) values.lastName = rules.requiredText('lastName', input.lastName, 100);
  if (input.officialEmail !== undefined) values.officialEmail = input.officialEmail ? rules.email('officialEmail', input.officialEmail) : null;
  if (input.primaryContactNumber != null) values.primaryContactNumber = rules.phone('primaryContactNumber', input.primaryContactNumber);
  if (input.userType != null) values.userType = rules.oneOf('userType', input.userType, USER_TYPES);
  const userType = values.userType ?? user.userType;
  if (input.storeName !== undefined) values.storeName = input.storeName ? rules.optionalText('storeName', input.storeName, 200) || null : null;
  if (values.storeName && !isCustomerType(userType)) throw new ValidationError('storeName', 'is only for distributors and retailers');
  // A customer made staff (allowed only without orders) leaves the shop name behind.
  if (!isCustomerType(userType) && values.storeName === undefined && user.storeName !== null) values.storeName = null;

  if (input.roleId != null) {
    const role = await em.findOne(Role, { id: input.roleId, status: ActiveStatus.ACTIVE });
    if (!role) throw new ValidationError('roleId', 'does not name an active role of this workspace');
    values.role = role.id;
  }
  if (input.townId !== undefined || input.routeId !== undefined) {
    const townId = input.townId === undefined ? idOf(user.town) : input.townId;
    const routeId = input.routeId === undefined ? idOf(user.route) : input.routeId;
    if (input.townId === null && routeId !== null) {
      throw new ValidationError('townId', 'cannot be cleared while the user keeps a route; clear routeId too');
    }
    const place = await userPlace(em, townId, routeId, { town: idOf(user.town), route: idOf(user.route) });
    values.town = idOf(place.town);
    values.route = idOf(place.route);
  }
  return { values, changed: changedFields(user, values) };
}

/** The fields whose value `values` changes, snake_case. */
function changedFields(user: User, values: UserValues): string[] {
  const current: Record<keyof UserValues, unknown> = {
    firstName: user.firstName,
    lastName: user.lastName,
    officialEmail: user.officialEmail,
    primaryContactNumber: user.primaryContactNumber,
    role: user.role.id,
    userType: user.userType,
    storeName: user.storeName,
    town: idOf(user.town),
    route: idOf(user.route),
  };
  return (Object.keys(values) as Array<keyof UserValues>).filter((key) => values[key] !== current[key]).map((key) => FIELD_NAMES[key]);
}
