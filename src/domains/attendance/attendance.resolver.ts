import { wrap } from '@mikro-orm/core';
import { Args, ArgsType, Authorized, Ctx, Field, FieldResolver, Float, InputType, Int, Mutation, Query, Resolver, Arg, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import { User } from '../users/user.entity';
import { userRow } from '../users/user-row';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { PageArgs } from '../../graphql/pagination.types';
import { InGroup } from '../../graphql/route-group';
import { Attendance } from './attendance.entity';
import { COST, pageCost } from '../../graphql/costs';

const AttendancePage = PageOf(Attendance, 'Attendance');

@ArgsType()
class AttendanceListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  date?: string | null;

  @Field(() => Int, { nullable: true })
  userId?: number | null;
}

@InputType()
class CheckInInput {
  @Field(() => Float, { nullable: true })
  latitude?: number | null;

  @Field(() => Float, { nullable: true })
  longitude?: number | null;
}

@Authorized()
@Resolver()
export class AttendanceResolver {
  @InGroup('attendance')
  @Query(() => AttendancePage, { complexity: pageCost(), description: 'Attendance records, newest day first (staff; employees see their own).' })
  async attendance(@Args(() => AttendanceListArgs) args: AttendanceListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<Attendance>> {
    const { page, limit, ...filter } = args;
    return toPage(await services.attendance.list(ctx, filter, { page, limit }));
  }

  @InGroup('attendance')
  @Mutation(() => Attendance, { complexity: COST.write, description: 'Checks the signed-in employee or admin in for today (workspace time zone).' })
  checkIn(@Arg('input', () => CheckInInput, { nullable: true }) input: CheckInInput | null, @Ctx() { ctx, services }: GraphqlContext): Promise<Attendance> {
    return services.attendance.checkIn(ctx, input ?? {});
  }

  @InGroup('attendance')
  @Mutation(() => Attendance, { complexity: COST.write, description: 'Checks the signed-in user out of today.' })
  checkOut(@Ctx() { ctx, services }: GraphqlContext): Promise<Attendance> {
    return services.attendance.checkOut(ctx);
  }
}

@Resolver(() => Attendance)
export class AttendanceFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation })
  user(@Root() attendance: Pick<Attendance, 'user'>, @Ctx() { ctx, loaders }: GraphqlContext): Related<Row<User>> {
    // Lists and check-ins load it with the record.
    return wrap(attendance.user).isInitialized() ? userRow(ctx.em, attendance.user, loaders) : loaders.user.load(attendance.user.id);
  }
}
