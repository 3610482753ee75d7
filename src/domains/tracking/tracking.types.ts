import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { UserType } from '../users/user.entity';
import { Position } from './position.entity';

@InputType({ description: 'One position of a device.' })
export class PositionFixInput {
  @Field(() => Date, { description: 'The device’s time of the fix (ISO 8601).' })
  deviceTime!: Date;

  @Field(() => Float, { description: '-90 to 90' })
  latitude!: number;

  @Field(() => Float, { description: '-180 to 180' })
  longitude!: number;

  @Field(() => Float, { nullable: true, description: 'Metres, 0 to 100000' })
  accuracyM?: number | null;

  @Field(() => Float, { nullable: true, description: 'Metres per second, 0 to 1000' })
  speedMps?: number | null;

  @Field(() => Float, { nullable: true, description: 'Degrees, 0 to 360' })
  heading?: number | null;

  @Field(() => Int, { nullable: true, description: '0 to 100' })
  batteryPct?: number | null;

  @Field(() => Boolean, { nullable: true })
  isCharging?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isMock?: boolean | null;
}

@InputType({ description: 'A batch of 1 to 500 positions of the signed-in staff member.' })
export class TrackPositionsInput {
  @Field(() => [PositionFixInput])
  positions!: PositionFixInput[];
}

@ObjectType({ simpleResolvers: true, description: 'A position of the batch that was not stored.' })
export class RejectedPosition {
  @Field(() => Int, { description: 'Its index in the batch, from 0.' })
  index!: number;

  @Field({ description: 'before_check_in, in_future (more than 5 minutes ahead of the server) or duplicate (already stored for that device time).' })
  reason!: string;
}

@ObjectType({ simpleResolvers: true, description: 'What a batch of positions did.' })
export class TrackPositionsResult {
  @Field(() => Int)
  accepted!: number;

  @Field(() => [RejectedPosition])
  rejected!: RejectedPosition[];

  @Field({ description: 'The open check-in the batch was accepted under.' })
  checkedInAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A staff member’s latest position, for the live map.' })
export class LivePosition {
  @Field(() => Float)
  positionId!: number;

  @Field(() => Int)
  userId!: number;

  @Field()
  userName!: string;

  @Field(() => UserType)
  userType!: UserType;

  @Field(() => Float)
  latitude!: number;

  @Field(() => Float)
  longitude!: number;

  @Field(() => Float, { nullable: true })
  accuracyM!: number | null;

  @Field(() => Float, { nullable: true })
  speedMps!: number | null;

  @Field(() => Float, { nullable: true })
  heading!: number | null;

  @Field(() => Int, { nullable: true })
  batteryPct!: number | null;

  @Field(() => Boolean, { nullable: true })
  isCharging!: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isMock!: boolean | null;

  @Field()
  recordedAt!: Date;

  @Field()
  receivedAt!: Date;

  @Field(() => Int, { description: 'Seconds since recordedAt (offline when large; see batteryPct for a dead phone).' })
  stalenessSeconds!: number;

  @Field({ description: 'Checked in today (the workspace’s local day) and not yet out.' })
  onDuty!: boolean;

  @Field(() => Int, { nullable: true, description: 'The user’s visit in progress, if any.' })
  currentVisitId!: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'One user’s positions of one local day, oldest first.' })
export class Trail {
  @Field(() => Int)
  userId!: number;

  @Field()
  userName!: string;

  @Field({ description: 'YYYY-MM-DD, the workspace’s local day.' })
  date!: string;

  @Field(() => Int, { description: 'Haversine length of the path through the points, metres.' })
  distanceM!: number;

  @Field({ description: 'The day holds more than 20,000 points: the first 20,000 are answered.' })
  truncated!: boolean;

  @Field(() => [Position])
  points!: Array<Row<Position>>;
}
