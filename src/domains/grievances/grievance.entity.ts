import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { FocRequest } from '../foc/foc.entity';
import { LedgerEntry } from '../ledger/ledger-entry.entity';
import { Order } from '../orders/order.entity';
import { User } from '../users/user.entity';

/** What a grievance is about. */
export enum GrievanceCategory {
  QUALITY = 1,
  SHORT_SUPPLY = 2,
  DAMAGE = 3,
  MISSED_DELIVERY = 4,
  BILLING = 5,
  STAFF = 6,
  OTHER = 7,
}
registerEnumType(GrievanceCategory, { name: 'GrievanceCategory', description: '1 quality, 2 short_supply, 3 damage, 4 missed_delivery, 5 billing, 6 staff, 7 other' });
export const GRIEVANCE_CATEGORIES = Object.values(GrievanceCategory).filter((v): v is GrievanceCategory => typeof v === 'number');
export const GRIEVANCE_CATEGORY_LABELS: Record<GrievanceCategory, string> = {
  [GrievanceCategory.QUALITY]: 'quality',
  [GrievanceCategory.SHORT_SUPPLY]: 'short_supply',
  [GrievanceCategory.DAMAGE]: 'damage',
  [GrievanceCategory.MISSED_DELIVERY]: 'missed_delivery',
  [GrievanceCategory.BILLING]: 'billing',
  [GrievanceCategory.STAFF]: 'staff',
  [GrievanceCategory.OTHER]: 'other',
};

/** open → acknowledged → in_progress ⇄ on_hold → resolved → closed; resolved | closed → in_progress (reopen, within 7 days). */
export enum GrievanceStatus {
  OPEN = 1,
  ACKNOWLEDGED = 2,
  IN_PROGRESS = 3,
  ON_HOLD = 4,
  RESOLVED = 5,
  CLOSED = 6,
}
registerEnumType(GrievanceStatus, { name: 'GrievanceStatus', description: '1 open, 2 acknowledged, 3 in_progress, 4 on_hold, 5 resolved, 6 closed' });
export const GRIEVANCE_STATUSES = Object.values(GrievanceStatus).filter((v): v is GrievanceStatus => typeof v === 'number');
export const GRIEVANCE_STATUS_LABELS: Record<GrievanceStatus, string> = {
  [GrievanceStatus.OPEN]: 'open',
  [GrievanceStatus.ACKNOWLEDGED]: 'acknowledged',
  [GrievanceStatus.IN_PROGRESS]: 'in_progress',
  [GrievanceStatus.ON_HOLD]: 'on_hold',
  [GrievanceStatus.RESOLVED]: 'resolved',
  [GrievanceStatus.CLOSED]: 'closed',
};

/** Who raised it: the customer themselves, a staff user for them, or an API key. */
export enum GrievanceRaisedVia {
  CUSTOMER = 1,
  STAFF = 2,
  API_KEY = 3,
}
registerEnumType(GrievanceRaisedVia, { name: 'GrievanceRaisedVia', description: '1 customer (their own session), 2 staff for the customer, 3 API key' });

/** What the resolution did beyond closing the case. */
export enum GrievanceResolutionAction {
  NONE = 0,
  CREDIT_NOTE = 1,
  REPLACEMENT = 2,
}
registerEnumType(GrievanceResolutionAction, { name: 'GrievanceResolutionAction', description: '0 none, 1 credit note to the ledger, 2 FOC replacement request' });
export const GRIEVANCE_RESOLUTION_ACTIONS = ['none', 'credit_note', 'replacement'] as const;

/** A customer's complaint with its SLA clocks (acknowledge-by, resolve-by) from opening. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'grievance' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({ properties: ['organizationId', 'customer'] })
@Index({ properties: ['organizationId', 'status'] })
export class Grievance extends TenantEntity<
  | 'status'
  | 'order'
  | 'raisedBy'
  | 'assignee'
  | 'acknowledgedAt'
  | 'resolvedAt'
  | 'closedAt'
  | 'reopenedAt'
  | 'reopenCount'
  | 'ackWarnedAt'
  | 'resolveWarnedAt'
  | 'resolution'
  | 'resolutionAction'
  | 'creditNote'
  | 'focRequest'
> {
  @ManyToOne(() => User, { fieldName: 'customer_id' })
  customer!: User;

  @ManyToOne(() => User, { nullable: true, fieldName: 'raised_by_user_id' })
  raisedBy: User | null = null;

  @Field(() => GrievanceRaisedVia)
  @Property({ type: 'smallint' })
  raisedVia!: GrievanceRaisedVia;

  @Field(() => GrievanceCategory)
  @Property({ type: 'smallint' })
  category!: GrievanceCategory;

  @ManyToOne(() => Order, { nullable: true, fieldName: 'order_id' })
  order: Order | null = null;

  @Field()
  @Property({ length: 2000 })
  description!: string;

  @Field(() => GrievanceStatus)
  @Property({ type: 'smallint' })
  status: GrievanceStatus = GrievanceStatus.OPEN;

  @ManyToOne(() => User, { nullable: true, fieldName: 'assignee_user_id' })
  assignee: User | null = null;

  @Field(() => Date, { description: 'Acknowledge by (opening + the workspace’s acknowledge hours, default 48).' })
  @Property({ type: 'datetime' })
  ackDueAt!: Date;

  @Field(() => Date, { description: 'Resolve by (opening + the workspace’s resolve days, default 30).' })
  @Property({ type: 'datetime' })
  resolveDueAt!: Date;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  acknowledgedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  resolvedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  closedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  reopenedAt: Date | null = null;

  @Field(() => Int)
  @Property({ type: 'smallint', default: 0 })
  reopenCount: number = 0;

  @Field(() => Date, { nullable: true, description: 'When the assignee was warned that the acknowledge-by deadline was near (once).' })
  @Property({ type: 'datetime', nullable: true })
  ackWarnedAt: Date | null = null;

  @Field(() => Date, { nullable: true, description: 'When the assignee was warned that the resolve-by deadline was near (once).' })
  @Property({ type: 'datetime', nullable: true })
  resolveWarnedAt: Date | null = null;

  @Field()
  @Property({ length: 2000, default: '' })
  resolution: string = '';

  @Field(() => GrievanceResolutionAction)
  @Property({ type: 'smallint', default: 0 })
  resolutionAction: GrievanceResolutionAction = GrievanceResolutionAction.NONE;

  @ManyToOne(() => LedgerEntry, { nullable: true, fieldName: 'credit_note_entry_id' })
  creditNote: LedgerEntry | null = null;

  @ManyToOne(() => FocRequest, { nullable: true, fieldName: 'foc_request_id' })
  focRequest: FocRequest | null = null;
}

/** A photo of a grievance (JPEG or PNG, ≤ 5 MB): its bytes in `data`, or a file under UPLOAD_DIR named by `storagePath`. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'grievance_photo' })
@Index({ properties: ['organizationId', 'grievance'] })
export class GrievancePhoto extends TenantEntity<'data' | 'storagePath' | 'uploadedBy'> {
  @ManyToOne(() => Grievance, { fieldName: 'grievance_id', deleteRule: 'cascade' })
  grievance!: Grievance;

  @Field()
  @Property({ length: 200 })
  fileName!: string;

  @Field()
  @Property({ length: 20 })
  contentType!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  byteSize!: number;

  @Property({ type: 'blob', nullable: true, lazy: true })
  data: Buffer | null = null;

  @Property({ length: 300, nullable: true })
  storagePath: string | null = null;

  @ManyToOne(() => User, { nullable: true, fieldName: 'uploaded_by_user_id' })
  uploadedBy: User | null = null;
}
