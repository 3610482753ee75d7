import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { FocReason, FocStatus } from './foc.entity';
import { FOC_SORT } from './foc.service';

@ArgsType()
export class FocListArgs extends SortedPageArgs(FOC_SORT) {
  @Field(() => FocStatus, { nullable: true })
  status?: FocStatus | null;

  @Field(() => Int, { nullable: true })
  customerId?: number | null;

  @Field(() => FocReason, { nullable: true })
  reason?: FocReason | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: created on or after this local day' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: created on or before this local day' })
  dateTo?: string | null;
}

@InputType()
export class FocLineInput {
  @Field(() => Int)
  productVariantId!: number;

  @Field(() => Int, { description: '1 to 1,000,000' })
  quantity!: number;

  @Field(() => Float, { nullable: true, description: "Cost of one unit, >= 0, two decimals (default: the variant's selling price)" })
  unitCost?: number | null;
}

@InputType({ description: 'A FOC request: goods free of cost for a distributor or retailer.' })
export class SubmitFocInput {
  @Field(() => Int, { description: 'An active distributor or retailer' })
  customerId!: number;

  @Field(() => FocReason)
  reason!: FocReason;

  @Field(() => String, { nullable: true, description: 'At most 500 characters' })
  remarks?: string | null;

  @Field(() => [FocLineInput], { description: '1 to 200 lines, each variant once' })
  items!: FocLineInput[];
}
