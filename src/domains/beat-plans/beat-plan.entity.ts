import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { registerEnumType } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { TenantEntity } from '../../db/tenant.entity';
import { Outlet } from '../masters/outlet.entity';
import { Route } from '../masters/route.entity';
import { User } from '../users/user.entity';

/** How often a template falls on its weekday: every week, every second week, once a month. */
export enum BeatFrequency {
  WEEKLY = 1,
  FORTNIGHTLY = 2,
  MONTHLY = 4,
}

/**
 * A beat plan template (the permanent journey plan): an employee visits a route's outlets on one
 * ISO weekday (1 Monday … 7 Sunday) at a frequency, between effective dates. It generates the
 * employee's day instances (BeatPlanDay).
 */
@Entity({ tableName: 'beat_plan' })
@Index({ properties: ['organizationId', 'user', 'weekday'] })
@Index({ properties: ['organizationId', 'route'] })
export class BeatPlan extends TenantEntity<'status' | 'effectiveTo'> {
  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @ManyToOne(() => Route, { fieldName: 'route_id' })
  route!: Route;

  /** ISO weekday: 1 Monday … 7 Sunday. */
  @Property({ type: 'smallint' })
  weekday!: number;

  @Property({ type: 'smallint' })
  frequency!: BeatFrequency;

  @Property({ type: 'date' })
  effectiveFrom!: string;

  @Property({ type: 'date', nullable: true })
  effectiveTo: string | null = null;

  @Property({ type: 'smallint' })
  status: ActiveStatus = ActiveStatus.ACTIVE;

  /**
   * The workspace's local day of the last create, edit or deactivation: started days up to it were
   * frozen from an earlier version, so only later days are generated from this version.
   */
  @Property({ type: 'date' })
  revisedOn!: string;
}

/** An outlet of a template, in visiting order. */
@Entity({ tableName: 'beat_plan_outlet' })
@Unique({ properties: ['organizationId', 'beatPlan', 'outlet'] })
export class BeatPlanOutlet extends TenantEntity {
  @ManyToOne(() => BeatPlan, { fieldName: 'beat_plan_id', deleteRule: 'cascade' })
  beatPlan!: BeatPlan;

  @ManyToOne(() => Outlet, { fieldName: 'outlet_id' })
  outlet!: Outlet;

  @Property({ type: 'integer' })
  sequence!: number;
}

/** A frozen day instance: the outlets an employee was to visit on a started local day. */
@Entity({ tableName: 'beat_plan_day' })
@Unique({ properties: ['organizationId', 'user', 'date'] })
@Index({ properties: ['organizationId', 'date'] })
export class BeatPlanDay extends TenantEntity {
  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Property({ type: 'date' })
  date!: string;

  @ManyToOne(() => BeatPlan, { fieldName: 'beat_plan_id' })
  beatPlan!: BeatPlan;

  @ManyToOne(() => Route, { fieldName: 'route_id' })
  route!: Route;

  @Property({ type: 'datetime' })
  frozenAt!: Date;
}

/** An outlet of a frozen day, in visiting order (a snapshot of the template's list). */
@Entity({ tableName: 'beat_plan_day_outlet' })
@Unique({ properties: ['organizationId', 'day', 'outlet'] })
export class BeatPlanDayOutlet extends TenantEntity {
  @ManyToOne(() => BeatPlanDay, { fieldName: 'day_id', deleteRule: 'cascade' })
  day!: BeatPlanDay;

  @ManyToOne(() => Outlet, { fieldName: 'outlet_id' })
  outlet!: Outlet;

  @Property({ type: 'integer' })
  sequence!: number;
}

registerEnumType(BeatFrequency, { name: 'BeatFrequency', description: '1 weekly, 2 fortnightly (every second week from effective_from\'s week), 4 monthly (the n-th weekday of the month)' });
