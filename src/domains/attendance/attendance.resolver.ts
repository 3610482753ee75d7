import { Args, ArgsType, Authorized, Ctx, Field, FieldResolver, Float, InputType, Int, Mutation, Query, Resolver, Arg, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import { User } from '../users/user.entity';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { SortedPageArgs } from '../../graphql/sort.types';
import { ATTENDANCE_SORT } from './attendance.service';
import { InGroup } from '../../graphql/route-group';
import { Attendance } from './attendance.entity';
import { attendanceRowOf } from './attendance-read';
import { COST, pageCost } from '../../graphql/costs';

const AttendancePage = PageOf(Attendance, 'Attendance');

@ArgsType()
class AttendanceListArgs extends SortedPageArgs(ATTENDANCE_SORT) {
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
  async attendance(@Args(() => AttendanceListArgs) args: AttendanceListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<Attendance>>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.attendance.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => attendanceRowOf(read, loaders)) });
  }

  @InGroup('attendance')
  @Mutation(() => Attendance, { complexity: COST.write, description: 'Checks the signed-in employee or admin in for today (workspace time zone).' })
  async checkIn(
    @Arg('input', () => CheckInInput, { nullable: true }) input: CheckInInput | null,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Attendance>> {
    return attendanceRowOf(await services.attendance.checkIn(ctx, input ?? {}), loaders);
  }

  @InGroup('attendance')
  @Mutation(() => Attendance, { complexity: COST.write, description: 'Checks the signed-in user out of today.' })
  async checkOut(@Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Attendance>> {
    return attendanceRowOf(await services.attendance.checkOut(ctx), loaders);
  }
}

@Resolver(() => Attendance)
export class AttendanceFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation })
  user(@Root() attendance: Pick<Row<Attendance>, 'user'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    // Lists and check-ins read it with the record and prime the loader.
    return loaders.user.load(attendance.user);
  }
}
