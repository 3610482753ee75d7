import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { SortedPageArgs } from '../../graphql/sort.types';
import { RATE_LIST_SORT, VARIANT_PRICE_SORT } from './price.service';
import { PriceSource } from './variant-price.entity';

@ArgsType()
export class VariantPriceListArgs extends SortedPageArgs(VARIANT_PRICE_SORT) {
  @Field(() => Int)
  variantId!: number;
}

@ArgsType()
export class RateListArgs extends SortedPageArgs(RATE_LIST_SORT) {
  @Field(() => String, { nullable: true, description: "YYYY-MM-DD; default today in the workspace's time zone" })
  date?: string | null;

  @Field(() => String, { nullable: true, description: 'Matches the SKU code, the variant name or the product name' })
  search?: string | null;

  @Field(() => ActiveStatus, { nullable: true, description: "The variant's status" })
  status?: ActiveStatus | null;

  @Field(() => Int, { nullable: true })
  productId?: number | null;
}

@InputType({ description: "A new version of a variant's prices (admins only); orders already placed keep their line prices." })
export class VariantPriceInput {
  @Field(() => Float, { description: 'Selling price, at most mrp' })
  sp!: number;

  @Field(() => Float, { nullable: true, description: 'Default: the MRP in force on the effective day' })
  mrp?: number | null;

  @Field(() => String, { nullable: true, description: "YYYY-MM-DD, today or later in the workspace's time zone; default today" })
  effectiveFrom?: string | null;
}

@ObjectType({ simpleResolvers: true, description: "One variant's price in force on the rate list's day." })
export class RateListEntry {
  @Field(() => Int)
  variantId!: number;

  @Field(() => Int)
  productId!: number;

  @Field()
  productName!: string;

  @Field()
  variantName!: string;

  @Field()
  itemSkuCode!: string;

  @Field(() => ActiveStatus)
  variantStatus!: number;

  @Field(() => Float, { description: 'Selling price in force' })
  sp!: number;

  @Field(() => Float)
  mrp!: number;

  @Field({ description: 'YYYY-MM-DD: the day the version in force began' })
  effectiveFrom!: string;

  @Field(() => Int, { description: 'The version in force (a VariantPrice id)' })
  priceId!: number;

  @Field(() => PriceSource)
  source!: PriceSource;
}
