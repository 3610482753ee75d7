import { Check, DecimalType, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Scheme } from '../schemes/scheme.entity';
import { User } from '../users/user.entity';
import { Visit } from '../visits/visit.entity';

/** Who booked a secondary sale: the distributor themself, a field employee (or admin), or an API key. */
export enum SecondarySaleSource {
  DISTRIBUTOR = 1,
  FIELD = 2,
  API = 3,
}
registerEnumType(SecondarySaleSource, { name: 'SecondarySaleSource', description: '1 the distributor, 2 a field employee or admin, 3 an API key' });
export const SECONDARY_SALE_SOURCES = Object.values(SecondarySaleSource).filter((v): v is SecondarySaleSource => typeof v === 'number');

/**
 * A distributor's invoice to a retailer (a secondary sale): the invoice number is unique per
 * distributor, and a client_ref makes a re-send the same sale. Totals are computed server-side from
 * the lines and stored: gross = Σ quantity × rate, net = gross − Σ scheme discount.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'secondary_sale' })
@Unique({ properties: ['organizationId', 'distributor', 'invoiceNo'] })
@Unique({ properties: ['organizationId', 'distributor', 'clientRef'] })
// The list's default order, and the retailer's view.
@Index({ properties: ['organizationId', 'invoiceDate'] })
@Index({ properties: ['organizationId', 'retailer', 'invoiceDate'] })
@Check({ name: 'secondary_sale_amounts_check', expression: 'gross_amount >= 0 and scheme_discount >= 0 and net_amount = gross_amount - scheme_discount' })
export class SecondarySale extends TenantEntity<'clientRef' | 'bookedBy' | 'visit'> {
  @ManyToOne(() => User, { fieldName: 'distributor_id' })
  distributor!: User;

  @ManyToOne(() => User, { fieldName: 'retailer_id' })
  retailer!: User;

  @Field()
  @Property({ length: 50 })
  invoiceNo!: string;

  @Field({ description: 'YYYY-MM-DD' })
  @Property({ type: 'date' })
  invoiceDate!: string;

  @Field(() => String, { nullable: true, description: "The sender's key: a re-send with the same client_ref is the same sale." })
  @Property({ type: 'string', length: 100, nullable: true })
  clientRef: string | null = null;

  /** A digest of the checked request, to tell a re-send from a different sale under the same client_ref. */
  @Property({ length: 64, hidden: true })
  requestHash!: string;

  @Field(() => SecondarySaleSource)
  @Property({ type: 'smallint' })
  source!: SecondarySaleSource;

  @ManyToOne(() => User, { nullable: true, fieldName: 'booked_by_user_id' })
  bookedBy: User | null = null;

  @ManyToOne(() => Visit, { nullable: true, fieldName: 'visit_id' })
  visit: Visit | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  itemsCount!: number;

  @Field(() => Float, { description: 'Σ quantity × rate over the lines.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  grossAmount!: number;

  @Field(() => Float, { description: "Σ the lines' scheme discounts." })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  schemeDiscount!: number;

  @Field(() => Float, { description: 'grossAmount − schemeDiscount.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  netAmount!: number;
}

/** A line of a secondary sale. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'secondary_sale_line' })
@Index({ properties: ['organizationId', 'sale'] })
@Index({ properties: ['organizationId', 'variant'] })
@Check({ name: 'secondary_sale_line_quantities_check', expression: 'quantity > 0 and free_quantity >= 0 and rate >= 0 and discount_amount >= 0' })
export class SecondarySaleLine extends TenantEntity<'schemeId'> {
  @ManyToOne(() => SecondarySale, { fieldName: 'secondary_sale_id', deleteRule: 'cascade' })
  sale!: SecondarySale;

  @ManyToOne(() => ProductVariant, { fieldName: 'product_variant_id' })
  variant!: ProductVariant;

  @Field(() => Int)
  @Property({ type: 'integer' })
  quantity!: number;

  @Field(() => Int, { description: 'Units given free on the line (a scheme’s free goods).' })
  @Property({ type: 'integer' })
  freeQuantity!: number;

  @Field(() => Float, { description: 'Price of one unit on the invoice.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  rate!: number;

  @Field(() => Float, { description: 'What the applied scheme took off the line.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  discountAmount!: number;

  @Field(() => Float, { description: 'quantity × rate − discountAmount.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)' })
  amount!: number;

  @Field(() => Int, { nullable: true, description: 'The scheme applied on the line (a scheme of the workspace).' })
  @ManyToOne(() => Scheme, { mapToPk: true, nullable: true, fieldName: 'scheme_id' })
  schemeId: number | null = null;
}
