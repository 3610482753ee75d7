import { Check, DecimalType, Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { ImportJob } from '../imports/import-job.entity';
import { User } from '../users/user.entity';
import { ProductVariant } from './product-variant.entity';

/** Where a price row came from. */
export enum PriceSource {
  /** A product or variant edit, or a change scheduled for one variant. */
  MANUAL = 1,
  /** A row of a rate-list import. */
  IMPORT = 2,
  /** The variant's price when the history began (the migration's backfill). */
  OPENING = 3,
}
registerEnumType(PriceSource, { name: 'PriceSource', description: '1 manual, 2 import, 3 opening (the price when the history began)' });

/** The API names of the sources. */
export const PRICE_SOURCE_NAMES: Record<PriceSource, string> = {
  [PriceSource.MANUAL]: 'manual',
  [PriceSource.IMPORT]: 'import',
  [PriceSource.OPENING]: 'opening',
};

/**
 * One version of a variant's prices (selling price and MRP) from a local day of the workspace on.
 * Rows are only ever inserted (a trigger refuses UPDATE and DELETE, see Migration20261127150000):
 * the price in force on day D is the variant's row with the latest effective_from ≤ D, and of
 * those the latest written (highest id). product_variant.sp/mrp hold today's price in force.
 */
@ObjectType({ simpleResolvers: true, description: "A version of a variant's prices, in force from its effective day until a later one." })
@Entity({ tableName: 'variant_price' })
// The price in force of one variant on a day, and its history.
@Index({ name: 'variant_price_in_force_index', properties: ['organizationId', 'variant', 'effectiveFrom', 'id'] })
// The cron task's search for changes that came due.
@Index({ properties: ['organizationId', 'effectiveFrom'] })
@Index({ properties: ['organizationId', 'importId'] })
@Check({ name: 'variant_price_sp_check', expression: 'sp >= 0 and sp <= mrp' })
export class VariantPrice extends TenantEntity<'importId' | 'createdBy' | 'createdByApiKeyId'> {
  // A variant's history goes with it (only a variant no order names can be deleted at all).
  @ManyToOne(() => ProductVariant, { fieldName: 'variant_id', deleteRule: 'cascade' })
  variant!: ProductVariant;

  @Field(() => Float, { description: 'Selling price: order lines placed while it is in force are priced at it.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  sp!: number;

  @Field(() => Float, { description: 'Maximum retail price.' })
  @Property({ type: new DecimalType('number'), columnType: 'numeric(12,2)' })
  mrp!: number;

  @Field({ description: "The workspace's local day (YYYY-MM-DD) from which it is in force." })
  @Property({ type: 'date' })
  effectiveFrom!: string;

  @Field(() => PriceSource)
  @Property({ type: 'smallint' })
  source!: PriceSource;

  @Field(() => Int, { nullable: true, description: 'The import that wrote it, for import rows.' })
  @ManyToOne(() => ImportJob, { mapToPk: true, nullable: true, fieldName: 'import_id' })
  importId: number | null = null;

  @ManyToOne(() => User, { nullable: true, fieldName: 'created_by_user_id' })
  createdBy: User | null = null;

  @Field(() => Int, { nullable: true, description: 'The API key that wrote it, when one did.' })
  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'created_by_api_key_id' })
  createdByApiKeyId: number | null = null;
}
