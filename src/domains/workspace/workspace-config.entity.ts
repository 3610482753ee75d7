import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';

/** Settings and branding of a workspace; exactly one per organization, created at signup. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'workspace_config' })
@Unique({ properties: ['organizationId'] })
export class WorkspaceConfig extends TenantEntity<
  | 'logo'
  | 'primaryColor'
  | 'secondaryColor'
  | 'orgFooterName'
  | 'orgAddress'
  | 'gstin'
  | 'fssai'
  | 'contactNumber'
  | 'orderTiming'
  | 'pageLimit'
  | 'chatbotEnabled'
  | 'timeZone'
  | 'positionRetentionDays'
  | 'visitRadiusM'
  | 'visitMinDwellMinutes'
  | 'grievanceAckHours'
  | 'grievanceResolveDays'
> {
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 2048, nullable: true })
  logo: string | null = null;

  @Field()
  @Property({ length: 7 })
  primaryColor: string = '#1F4E79';

  @Field()
  @Property({ length: 7 })
  secondaryColor: string = '#F2A900';

  @Field()
  @Property({ length: 200 })
  orgFooterName: string = '';

  @Field()
  @Property({ length: 500 })
  orgAddress: string = '';

  @Field()
  @Property({ length: 15 })
  gstin: string = '';

  @Field()
  @Property({ length: 14 })
  fssai: string = '';

  @Field()
  @Property({ length: 20 })
  contactNumber: string = '';

  @Field({ description: 'Order-taking window, HH:MM-HH:MM.' })
  @Property({ length: 11 })
  orderTiming: string = '00:00-23:59';

  @Field(() => Int)
  @Property({ type: 'integer' })
  pageLimit: number = 20;

  @Field()
  @Property({ type: 'boolean' })
  chatbotEnabled: boolean = false;

  @Field({ description: 'IANA time zone of the workspace (e.g. Asia/Kolkata): the local day of "today" in statistics and exports.' })
  @Property({ length: 64, default: 'UTC' })
  timeZone: string = 'UTC';

  @Field(() => Int, { description: 'Days live-tracking positions are kept (1–3650, default 90); older ones are deleted daily.' })
  @Property({ type: 'integer', default: 90 })
  positionRetentionDays: number = 90;

  @Field(() => Int, { description: 'Metres from an outlet’s tagged location within which a visit is geo-verified (10–5000, default 100).' })
  @Property({ type: 'integer', default: 100 })
  visitRadiusM: number = 100;

  @Field(() => Int, { description: 'Minutes a visit must last to be geo-verified (0–240, default 2).' })
  @Property({ type: 'integer', default: 2 })
  visitMinDwellMinutes: number = 2;

  @Field(() => Int, { description: 'Hours a new grievance must be acknowledged within (1–720, default 48).' })
  @Property({ type: 'integer', default: 48 })
  grievanceAckHours: number = 48;

  @Field(() => Int, { description: 'Days a new grievance must be resolved within (1–365, default 30).' })
  @Property({ type: 'integer', default: 30 })
  grievanceResolveDays: number = 30;
}
