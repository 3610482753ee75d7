import { BigIntType, Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/**
 * One breadcrumb of a staff member's device: where it was at `recordedAt` (the device's clock),
 * and when the server received it. Append-only; rows older than the workspace's
 * `positionRetentionDays` are deleted by the cron task delete_old_positions.
 *
 * The unique (organization_id, user_id, recorded_at) index is both the key of the live and
 * trail reads (newest per user: a backward scan of it) and what makes a re-sent batch idempotent:
 * the insert skips a fix the user already sent for the same instant.
 */
@ObjectType({ simpleResolvers: true, description: 'A position a staff member’s device reported.' })
@Entity({ tableName: 'user_position' })
@Unique({ name: 'user_position_organization_id_user_id_recorded_at_unique', properties: ['organizationId', 'user', 'recordedAt'] })
export class Position extends TenantEntity<'accuracyM' | 'speedMps' | 'heading' | 'batteryPct' | 'isCharging' | 'isMock' | 'receivedAt'> {
  /** bigint: a busy workspace posts millions of positions a month, past int's 2.1 billion in a few years of all workspaces. */
  @Field(() => Float, { description: 'Position id (a bigint, exact up to 2^53).' })
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  override id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: User;

  @Field({ description: 'The device’s time of the fix.' })
  @Property({ type: 'datetime' })
  recordedAt!: Date;

  @Field({ description: 'When the server received it.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  receivedAt: Date = new Date();

  @Field(() => Float)
  @Property({ type: 'double' })
  latitude!: number;

  @Field(() => Float)
  @Property({ type: 'double' })
  longitude!: number;

  @Field(() => Float, { nullable: true, description: 'Horizontal accuracy radius, metres.' })
  @Property({ type: 'float', nullable: true })
  accuracyM: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Metres per second.' })
  @Property({ type: 'float', nullable: true })
  speedMps: number | null = null;

  @Field(() => Float, { nullable: true, description: 'Degrees clockwise from north, 0–360.' })
  @Property({ type: 'float', nullable: true })
  heading: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Battery level, 0–100.' })
  @Property({ type: 'smallint', nullable: true })
  batteryPct: number | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true })
  isCharging: boolean | null = null;

  @Field(() => Boolean, { nullable: true, description: 'The device reported a mock (simulated) location.' })
  @Property({ type: 'boolean', nullable: true })
  isMock: boolean | null = null;
}
