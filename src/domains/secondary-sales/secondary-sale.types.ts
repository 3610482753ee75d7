import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { SECONDARY_SALE_SORT } from './secondary-sale.service';

@ArgsType()
export class SecondarySaleListArgs extends SortedPageArgs(SECONDARY_SALE_SORT) {
  @Field(() => Int, { nullable: true })
  distributorId?: number | null;

  @Field(() => Int, { nullable: true })
  retailerId?: number | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: invoiced on or after this day' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: invoiced on or before this day' })
  dateTo?: string | null;

  @Field(() => String, { nullable: true, description: 'Matches the invoice number' })
  search?: string | null;
}

@InputType()
export class SecondarySaleLineInput {
  @Field(() => Int, { description: 'A product variant of the workspace' })
  productVariantId!: number;

  @Field(() => Int, { description: '1 to 1,000,000' })
  quantity!: number;

  @Field(() => Int, { nullable: true, description: '0 to 1,000,000 (default 0): units given free' })
  freeQuantity?: number | null;

  @Field(() => Float, { description: 'Price of one unit, >= 0, two decimals' })
  rate!: number;

  @Field(() => Float, { nullable: true, description: 'What the applied scheme took off the line, >= 0, at most quantity × rate (default 0)' })
  discountAmount?: number | null;

  @Field(() => Int, { nullable: true, description: 'The scheme applied (a scheme of the workspace)' })
  schemeId?: number | null;
}

@InputType({ description: "A distributor's invoice to a retailer." })
export class RecordSecondarySaleInput {
  @Field(() => String, { nullable: true, description: "The sender's key (at most 100 characters): a re-send with the same one is the same sale" })
  clientRef?: string | null;

  @Field(() => Int, { nullable: true, description: 'Required of staff and API keys; a distributor books their own' })
  distributorId?: number | null;

  @Field(() => Int, { description: 'A retailer of the workspace' })
  retailerId!: number;

  @Field(() => String, { description: 'At most 50 characters; unique per distributor' })
  invoiceNo!: string;

  @Field(() => String, { description: 'YYYY-MM-DD, not after today' })
  invoiceDate!: string;

  @Field(() => Int, { nullable: true, description: "A field employee's own visit at an outlet on the retailer's route" })
  visitId?: number | null;

  @Field(() => [SecondarySaleLineInput], { description: '1 to 200 lines, each variant once' })
  items!: SecondarySaleLineInput[];
}

@ObjectType({ simpleResolvers: true, description: "One variant of a distributor's sell-in against sell-out" })
export class SecondaryStockLine {
  @Field(() => Int)
  productVariantId!: number;

  @Field()
  productName!: string;

  @Field()
  variantName!: string;

  @Field()
  itemSkuCode!: string;

  @Field(() => Int, { description: 'Units of delivered primary orders (free lines included)' })
  sellIn!: number;

  @Field(() => Int, { description: 'Units of secondary sales: quantity + free quantity' })
  sellOut!: number;

  @Field(() => Int, { description: 'sellIn − sellOut' })
  impliedStock!: number;

  @Field({ description: 'True when more went out than came in' })
  negative!: boolean;
}

@ObjectType({ simpleResolvers: true, description: "A distributor's implied stock per variant up to a day" })
export class SecondaryStock {
  @Field(() => Int)
  distributorId!: number;

  @Field({ description: 'YYYY-MM-DD' })
  dateTo!: string;

  @Field(() => [SecondaryStockLine])
  rows!: SecondaryStockLine[];
}
