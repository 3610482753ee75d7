import { ArgsType, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { FocLineInput } from '../foc/foc.types';
import { GrievanceCategory, GrievanceStatus } from './grievance.entity';
import { GRIEVANCE_ACTIONS } from './grievance-rules';
import { GRIEVANCE_SORT } from './grievance.service';

/** The transitions as a GraphQL enum (values are the REST action names). */
export enum GrievanceActionEnum {
  acknowledge = 'acknowledge',
  start = 'start',
  hold = 'hold',
  resolve = 'resolve',
  close = 'close',
  reopen = 'reopen',
}
registerEnumType(GrievanceActionEnum, { name: 'GrievanceAction', description: GRIEVANCE_ACTIONS.join(', ') });

@ArgsType()
export class GrievanceListArgs extends SortedPageArgs(GRIEVANCE_SORT) {
  @Field(() => GrievanceStatus, { nullable: true })
  status?: GrievanceStatus | null;

  @Field(() => GrievanceCategory, { nullable: true })
  category?: GrievanceCategory | null;

  @Field(() => Int, { nullable: true })
  customerId?: number | null;

  @Field(() => Int, { nullable: true })
  assigneeUserId?: number | null;
}

@InputType({ description: 'A new grievance: a customer raises it for themselves; staff and keys name the customer.' })
export class RaiseGrievanceInput {
  @Field(() => Int, { nullable: true, description: 'Staff and keys: the distributor or retailer (required); customers: omitted or their own id' })
  customerId?: number | null;

  @Field(() => GrievanceCategory)
  category!: GrievanceCategory;

  @Field(() => Int, { nullable: true, description: "One of the customer's orders" })
  orderId?: number | null;

  @Field(() => String, { description: '1 to 2000 characters' })
  description!: string;

  @Field(() => Int, { nullable: true, description: 'Staff only: an active admin or employee' })
  assigneeUserId?: number | null;
}

@InputType({ description: 'How a grievance was resolved, and optionally a credit note or an FOC replacement issued with it.' })
export class ResolveGrievanceInput {
  @Field(() => String, { description: '1 to 2000 characters' })
  resolution!: string;

  @Field(() => String, { nullable: true, description: 'none (default), credit_note (administrators and keys) or replacement' })
  action?: string | null;

  @Field(() => Float, { nullable: true, description: 'credit_note: the amount credited to the customer' })
  creditNoteAmount?: number | null;

  @Field(() => [FocLineInput], { nullable: true, description: 'replacement: the goods of the FOC request (reason replacement)' })
  replacementItems?: FocLineInput[] | null;
}

@ObjectType({ simpleResolvers: true, description: 'A pre-signed link to a grievance photo.' })
export class GrievancePhotoLink {
  @Field(() => Int)
  photoId!: number;

  @Field({ description: 'Absolute URL (…/api/v1/grievances/photo-files/{id}?expires=…&signature=…) that works without a credential for 15 minutes' })
  url!: string;

  @Field(() => Date)
  expiresAt!: Date;
}
