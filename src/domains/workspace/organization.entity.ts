import { Entity, Enum, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

/** Subscription plan of a workspace. `professional` appears in older responses, so it is kept. */
export enum WorkspacePlan {
  FREE = 'free',
  STARTER = 'starter',
  PRO = 'pro',
  PROFESSIONAL = 'professional',
}
registerEnumType(WorkspacePlan, { name: 'WorkspacePlan' });

/** Workspace status codes of the interface: 0 suspended, 1 active, 2 trial. */
export enum WorkspaceStatus {
  SUSPENDED = 0,
  ACTIVE = 1,
  TRIAL = 2,
}
registerEnumType(WorkspaceStatus, { name: 'WorkspaceStatus' });

/** The tenant: one workspace belonging to one organization. Not tenant-filtered itself. */
@ObjectType('Workspace', { simpleResolvers: true })
@Entity({ tableName: 'organization' })
export class Organization {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'domain' | 'plan' | 'status' | 'maxUsers' | 'trialEndsAt';

  @Field(() => Int, { description: 'Internal organization id (organization_id elsewhere).' })
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Field({ description: 'Public workspace identifier.' })
  @Property({ length: 32 })
  @Unique()
  workspaceId!: string;

  @Field()
  @Property({ length: 64 })
  @Unique()
  slug!: string;

  @Field()
  @Property({ length: 200 })
  displayName!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 253, nullable: true })
  domain: string | null = null;

  @Field(() => WorkspacePlan)
  @Enum({ items: () => WorkspacePlan })
  plan: WorkspacePlan = WorkspacePlan.FREE;

  @Field(() => WorkspaceStatus)
  @Property({ type: 'smallint' })
  status: WorkspaceStatus = WorkspaceStatus.TRIAL;

  @Field(() => Int)
  @Property({ type: 'integer' })
  maxUsers: number = 25;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  trialEndsAt: Date | null = null;

  @Field()
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
