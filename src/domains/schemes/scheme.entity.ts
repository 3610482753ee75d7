import { DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { Order } from '../orders/order.entity';

/** kind codes: what a scheme gives. */
export enum SchemeKind {
  DISCOUNT = 1,
  FREE_GOODS = 2,
}
registerEnumType(SchemeKind, { name: 'SchemeKind', description: '1 slab discount (percent or amount per unit), 2 free goods (whole units)' });

/** target_kind codes: what the scheme's slabs count. */
export enum SchemeTarget {
  VARIANT = 1,
  PRODUCT = 2,
  PRODUCT_CLASS = 3,
}
registerEnumType(SchemeTarget, { name: 'SchemeTarget', description: '1 a product variant, 2 a product (all its variants), 3 a product class' });

/** scope codes: which customers it is for. */
export enum SchemeScope {
  ALL = 1,
  TOWN = 2,
  ROUTE = 3,
  USER_TYPE = 4,
  CUSTOMERS = 5,
}
registerEnumType(SchemeScope, { name: 'SchemeScope', description: '1 all customers, 2 towns, 3 routes, 4 user types (2 distributor, 3 retailer), 5 named customers' });

/** budget_kind codes. */
export enum SchemeBudgetKind {
  AMOUNT = 1,
  UNITS = 2,
}
registerEnumType(SchemeBudgetKind, { name: 'SchemeBudgetKind', description: '1 an amount (discounts, and free goods at their selling price), 2 free units' });

/** status codes an admin sets; expired, scheduled and spent are derived (see schemeState). */
export enum SchemeStatus {
  ACTIVE = 1,
  DISABLED = 2,
}
registerEnumType(SchemeStatus, { name: 'SchemeStatus', description: '1 active, 2 disabled' });

export const SCHEME_KINDS = [SchemeKind.DISCOUNT, SchemeKind.FREE_GOODS];
export const SCHEME_TARGETS = [SchemeTarget.VARIANT, SchemeTarget.PRODUCT, SchemeTarget.PRODUCT_CLASS];
export const SCHEME_SCOPES = [SchemeScope.ALL, SchemeScope.TOWN, SchemeScope.ROUTE, SchemeScope.USER_TYPE, SchemeScope.CUSTOMERS];
export const SCHEME_BUDGET_KINDS = [SchemeBudgetKind.AMOUNT, SchemeBudgetKind.UNITS];
export const SCHEME_STATUSES = [SchemeStatus.ACTIVE, SchemeStatus.DISABLED];

/** One slab, as stored (snake_case JSON). */
export interface SlabData {
  min_qty: number;
  discount_percent: number | null;
  discount_amount: number | null;
  free_qty: number | null;
  free_variant_id: number | null;
  recursive: boolean;
}

/** A slab as GraphQL shows it (the stored JSON's snake_case keys under camelCase names). */
/** A slab as GraphQL shows it (camelCase; the resolver converts the stored JSON). */
@ObjectType('SchemeSlab', { simpleResolvers: true })
export class SchemeSlab {
  @Field(() => Int, { description: 'The least quantity of the target that reaches this slab.' })
  minQty!: number;

  @Field(() => Float, { nullable: true })
  discountPercent!: number | null;

  @Field(() => Float, { nullable: true, description: 'Off each unit.' })
  discountAmount!: number | null;

  @Field(() => Int, { nullable: true, description: 'Whole free units.' })
  freeQty!: number | null;

  @Field(() => Int, { nullable: true })
  freeVariantId!: number | null;

  @Field({ description: 'Free goods for every min_qty reached: floor(quantity / minQty) × freeQty.' })
  recursive!: boolean;
}

/** A trade scheme: slabs over the quantity of a target, for some customers, on some local days. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'scheme' })
@Unique({ properties: ['organizationId', 'code'] })
@Index({ properties: ['organizationId', 'status', 'validFrom'] })
export class Scheme extends TenantEntity<'status' | 'priority' | 'stackable' | 'validTo' | 'budgetKind' | 'budget' | 'scopeIds' | 'announcedAt'> {
  @Field()
  @Property({ length: 120 })
  name!: string;

  @Field()
  @Property({ length: 40 })
  code!: string;

  @Field(() => SchemeKind)
  @Property({ type: 'smallint' })
  kind!: SchemeKind;

  @Field(() => SchemeTarget)
  @Property({ type: 'smallint' })
  targetKind!: SchemeTarget;

  @Field(() => Int, { description: 'The variant, product or product class id, as targetKind says.' })
  @Property({ type: 'integer' })
  targetId!: number;

  @Field(() => SchemeScope)
  @Property({ type: 'smallint' })
  scope!: SchemeScope;

  @Field(() => [Int], { description: 'Town, route or customer ids, or user types, as scope says; empty for all customers.' })
  @Property({ type: 'json' })
  scopeIds: number[] = [];

  @Field({ description: 'First local day it applies, YYYY-MM-DD.' })
  @Property({ type: 'date' })
  validFrom!: string;

  @Field(() => String, { nullable: true, description: 'Last local day it applies, inclusive; null: open-ended.' })
  @Property({ type: 'date', nullable: true })
  validTo: string | null = null;

  @Field(() => Int, { description: 'Higher is evaluated first.' })
  @Property({ type: 'integer' })
  priority: number = 0;

  @Field({ description: 'Whether it may apply to lines another scheme already benefits.' })
  @Property({ type: 'boolean' })
  stackable: boolean = false;

  @Field(() => SchemeBudgetKind, { nullable: true })
  @Property({ type: 'smallint', nullable: true })
  budgetKind: SchemeBudgetKind | null = null;

  @Field(() => Float, { nullable: true })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)', nullable: true })
  budget: number | null = null;

  @Field(() => SchemeStatus)
  @Property({ type: 'smallint' })
  status: SchemeStatus = SchemeStatus.ACTIVE;

  /** When the customers in its scope were told it started (announce_started_schemes); null: not yet. */
  @Property({ type: 'datetime', nullable: true })
  announcedAt: Date | null = null;

  /** The slabs, ascending by min_qty (see scheme-rules.ts). */
  @Field(() => [SchemeSlab])
  @Property({ type: 'json' })
  slabs!: SlabData[];

  // Read fields (not columns): what the service's read adds.
  @Field(() => Float, { nullable: true, description: 'What the budget has used (net of reversals), in its unit.' })
  budgetUsed?: number | null;

  @Field(() => Float, { nullable: true })
  budgetLeft?: number | null;

  @Field(() => String, { nullable: true, description: 'active, scheduled, expired, disabled or spent, on the workspace’s today.' })
  state?: string | null;
}

/**
 * The consumption ledger of schemes' budgets: one row per order and scheme that gave something,
 * and a reversal row (the negated amount and units) when the order is cancelled or its lines are
 * replaced. Append-only: what a scheme has used is the sum of its rows.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'scheme_use' })
@Index({ properties: ['organizationId', 'schemeId'] })
@Index({ properties: ['organizationId', 'orderId'] })
export class SchemeUse extends TenantEntity<'reversal'> {
  @Field(() => Int)
  @ManyToOne(() => Scheme, { mapToPk: true, fieldName: 'scheme_id', deleteRule: 'cascade' })
  schemeId!: number;

  @Field(() => Int)
  @ManyToOne(() => Order, { mapToPk: true, fieldName: 'order_id', deleteRule: 'cascade' })
  orderId!: number;

  @Field(() => Float, { description: 'Discount given, plus free goods at their selling price; negative on a reversal.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;

  @Field(() => Int, { description: 'Free units given; negative on a reversal.' })
  @Property({ type: 'integer' })
  units!: number;

  @Field()
  @Property({ type: 'boolean' })
  reversal: boolean = false;
}
