import { ArgsType, Field, InputType, Int } from 'type-graphql';
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
