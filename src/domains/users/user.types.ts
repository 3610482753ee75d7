import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { SortedPageArgs } from '../../graphql/sort.types';
import { USER_SORT } from './user.service';
import { UserType } from './user.entity';

@ArgsType()
export class UserListArgs extends SortedPageArgs(USER_SORT) {
  @Field(() => UserType, { nullable: true })
  userType?: UserType;

  @Field(() => ActiveStatus, { nullable: true })
  status?: ActiveStatus;

  @Field({ nullable: true, description: 'Matches name, e-mail or phone' })
  search?: string;

  @Field(() => Int, { nullable: true, description: "Only users of this role (one of the workspace's)" })
  roleId?: number;

  @Field(() => Int, { nullable: true, description: "Only users of this town (one of the workspace's)" })
  townId?: number;

  @Field(() => Int, { nullable: true, description: "Only users of this route (one of the workspace's)" })
  routeId?: number;
}

@InputType({ description: 'A new user (admins only).' })
export class CreateUserInput {
  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field(() => String, { nullable: true })
  officialEmail?: string | null;

  @Field()
  primaryContactNumber!: string;

  @Field({ description: 'Initial password, at least 8 characters' })
  password!: string;

  @Field(() => Int)
  roleId!: number;

  @Field(() => UserType)
  userType!: UserType;

  @Field(() => String, { nullable: true, description: 'Distributors and retailers only' })
  storeName?: string | null;

  @Field(() => Int, { nullable: true })
  townId?: number | null;

  @Field(() => Int, { nullable: true })
  routeId?: number | null;
}

@InputType({
  description:
    'A change to a user (admins and API keys): any field of CreateUserInput but the password. Omitted fields stay; null clears officialEmail, storeName, townId and routeId.',
})
export class UpdateUserInput {
  @Field({ nullable: true })
  firstName?: string;

  @Field({ nullable: true })
  lastName?: string;

  @Field(() => String, { nullable: true, description: 'Unique across workspaces; null removes it' })
  officialEmail?: string | null;

  @Field({ nullable: true, description: 'Unique across workspaces' })
  primaryContactNumber?: string;

  @Field(() => Int, { nullable: true })
  roleId?: number;

  @Field(() => UserType, {
    nullable: true,
    description: 'Admin never to customer; customer and staff do not swap once the user has orders; not away from the last active admin (CONFLICT)',
  })
  userType?: UserType;

  @Field(() => String, { nullable: true, description: 'Distributors and retailers only; null removes it' })
  storeName?: string | null;

  @Field(() => Int, { nullable: true, description: 'null removes the town (and needs routeId null too when the user has a route)' })
  townId?: number | null;

  @Field(() => Int, { nullable: true, description: 'A route of the town; sets the town when none is given' })
  routeId?: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'A password-reset link on its way to a user.' })
export class PasswordResetSent {
  @Field(() => Int)
  userId!: number;

  @Field({ description: 'The e-mail address the link goes to' })
  sentTo!: string;

  @Field()
  message!: string;
}
