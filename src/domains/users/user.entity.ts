import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ActiveStatus } from '../../db/active-status';
import { Route } from '../masters/route.entity';
import { Town } from '../masters/town.entity';
import { Role } from './role.entity';

/** user_type codes: the interface's 0-2, and 3 for retailers (an extension). */
export enum UserType {
  ADMIN = 0,
  EMPLOYEE = 1,
  DISTRIBUTOR = 2,
  RETAILER = 3,
}

/** The user types by their REST names (the `type` filters). */
export const USER_TYPE_NAMES: Record<string, UserType> = {
  admin: UserType.ADMIN,
  employee: UserType.EMPLOYEE,
  distributor: UserType.DISTRIBUTOR,
  retailer: UserType.RETAILER,
};
registerEnumType(UserType, { name: 'UserType' });

/** Distributors and retailers: the workspace's customers. */
export function isCustomerType(userType: UserType): boolean {
  return userType === UserType.DISTRIBUTOR || userType === UserType.RETAILER;
}


/** A person of a workspace: admin, employee, or a customer (distributor or retailer). */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'app_user' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['organizationId', 'userType', 'status'] })
@Index({ properties: ['organizationId', 'role'] })
@Index({ name: 'app_user_email_unique', expression: 'create unique index "app_user_email_unique" on "app_user" (lower("official_email"))' })
@Index({ name: 'app_user_phone_unique', expression: 'create unique index "app_user_phone_unique" on "app_user" ("primary_contact_number")' })
export class User extends TenantEntity<
  'officialEmail' | 'status' | 'storeName' | 'town' | 'route' | 'currentSessionId' | 'failedSignIns' | 'lockedUntil'
> {
  @Field()
  @Property({ length: 100 })
  firstName!: string;

  @Field()
  @Property({ length: 100 })
  lastName!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 254, nullable: true })
  officialEmail: string | null = null;

  @Field()
  @Property({ length: 20 })
  primaryContactNumber!: string;

  @Property({ length: 255, hidden: true, lazy: true })
  passwordHash!: string;

  @ManyToOne(() => Role, { fieldName: 'role_id' })
  role!: Role;

  @Field(() => UserType)
  @Property({ type: 'smallint' })
  userType!: UserType;

  @Field(() => ActiveStatus)
  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;

  @Field(() => String, { nullable: true, description: 'Shop name of a distributor or retailer.' })
  @Property({ type: 'string', length: 200, nullable: true })
  storeName: string | null = null;

  @ManyToOne(() => Town, { nullable: true, fieldName: 'town_id' })
  town: Town | null = null;

  @ManyToOne(() => Route, { nullable: true, fieldName: 'route_id' })
  route: Route | null = null;

  /** Id of the one session token that is currently valid; null when signed out. */
  @Property({ type: 'uuid', nullable: true, hidden: true })
  currentSessionId: string | null = null;

  /** Failed sign-ins since the last success (any method); the fifth locks the account. */
  @Property({ type: 'smallint', hidden: true })
  failedSignIns: number = 0;

  /** While in the future, every sign-in method answers 423. */
  @Property({ type: 'datetime', nullable: true, hidden: true })
  lockedUntil: Date | null = null;
}
