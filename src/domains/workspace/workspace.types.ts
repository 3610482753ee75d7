import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { UserRead } from '../users/user-read';
import { Organization } from './organization.entity';

@InputType({ description: 'Changes to the workspace configuration; omitted fields stay as they are.' })
export class WorkspaceConfigInput {
  @Field(() => String, { nullable: true, description: 'http(s) URL of the logo; empty removes it' })
  logo?: string | null;

  @Field({ nullable: true, description: '#RRGGBB' })
  primaryColor?: string;

  @Field({ nullable: true, description: '#RRGGBB' })
  secondaryColor?: string;

  @Field({ nullable: true })
  orgFooterName?: string;

  @Field({ nullable: true })
  orgAddress?: string;

  @Field({ nullable: true })
  contactNumber?: string;

  @Field({ nullable: true })
  gstin?: string;

  @Field({ nullable: true })
  fssai?: string;

  @Field({ nullable: true, description: 'HH:MM-HH:MM' })
  orderTiming?: string;

  @Field(() => Int, { nullable: true })
  pageLimit?: number;

  @Field({ nullable: true })
  chatbotEnabled?: boolean;

  @Field({ nullable: true, description: 'IANA time zone, e.g. Asia/Kolkata' })
  timeZone?: string;

  @Field(() => Int, { nullable: true, description: 'Days live-tracking positions are kept, 1–3650' })
  positionRetentionDays?: number;

  @Field(() => Int, { nullable: true, description: 'Metres within which a visit is geo-verified, 10–5000' })
  visitRadiusM?: number;

  @Field(() => Int, { nullable: true, description: 'Minutes a visit must last to be geo-verified, 0–240' })
  visitMinDwellMinutes?: number;

  @Field(() => Int, { nullable: true, description: 'Hours a new grievance must be acknowledged within, 1–720' })
  grievanceAckHours?: number;

  @Field(() => Int, { nullable: true, description: 'Days a new grievance must be resolved within, 1–365' })
  grievanceResolveDays?: number;
}

@InputType({ description: 'Self-service signup: a new workspace and its first admin.' })
export class SignupInput {
  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field()
  officialEmail!: string;

  @Field()
  primaryContactNumber!: string;

  @Field({ description: 'At least 8 characters' })
  password!: string;

  @Field()
  organizationName!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A new workspace with its first admin, signed in.' })
export class SignupPayload {
  @Field({ description: 'Session token: send as Authorization: Bearer <token>' })
  token!: string;

  /** Shown through SignupPayloadResolver, as a row. */
  user!: UserRead;

  @Field(() => Organization)
  workspace!: Row<Organization>;
}
