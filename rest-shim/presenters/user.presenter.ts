import { Type } from '@sinclair/typebox';
import { isCustomerType } from '../../src/domains/users/user.entity';
import type { UserProfileRead, UserRead } from '../../src/domains/users/user-read';
import { Nullable, Timestamp } from '../schemas';

/** A user as lists and creates show it. */
export const UserBody = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  official_email: Nullable(Type.String()),
  primary_contact_number: Type.String(),
  role_id: Type.Integer(),
  role_name: Type.String(),
  user_type: Type.Integer({ description: '0 admin, 1 employee, 2 distributor, 3 retailer' }),
  status: Type.Integer({ description: '1 active, 0 inactive' }),
  store_name: Type.Optional(Nullable(Type.String({ description: 'Distributors and retailers only' }))),
  town_id: Nullable(Type.Integer()),
  town_name: Nullable(Type.String()),
  route_id: Nullable(Type.Integer()),
  route_name: Nullable(Type.String()),
  organization_id: Type.Integer(),
  createdAt: Timestamp,
});

/** A user profile with its role and organization (GET /users/{id}, GET /auth/me). */
export const UserProfileBody = Type.Composite([
  UserBody,
  Type.Object({
    role: Type.Object({ id: Type.Integer(), role_name: Type.String() }),
    organization: Type.Object({
      id: Type.Integer(),
      organization_name: Type.String(),
      workspace_id: Type.String(),
      slug: Type.String(),
    }),
  }),
]);

/** A user with the names of its role, town and route. */
export function presentUser({ user, role, town, route }: UserRead) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    official_email: user.officialEmail,
    primary_contact_number: user.primaryContactNumber,
    role_id: role.id,
    role_name: role.name,
    user_type: user.userType,
    status: user.status,
    ...(isCustomerType(user.userType) ? { store_name: user.storeName } : {}),
    town_id: town?.id ?? null,
    town_name: town?.name ?? null,
    route_id: route?.id ?? null,
    route_name: route?.name ?? null,
    organization_id: user.organizationId,
    createdAt: user.createdAt,
  };
}

/** A user with role and organization details. */
export function presentUserProfile(read: UserProfileRead) {
  const { role, organization } = read;
  return {
    ...presentUser(read),
    role: { id: role.id, role_name: role.name },
    organization: {
      id: organization.id,
      organization_name: organization.displayName,
      workspace_id: organization.workspaceId,
      slug: organization.slug,
    },
  };
}
