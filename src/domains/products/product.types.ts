import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { SortedPageArgs } from '../../graphql/sort.types';
import { PRODUCT_SORT } from './product.service';

@ArgsType()
export class ProductListArgs extends SortedPageArgs(PRODUCT_SORT) {
  @Field({ nullable: true, description: 'Matches the product name' })
  search?: string;

  @Field(() => ActiveStatus, { nullable: true })
  status?: ActiveStatus;

  @Field(() => Int, { nullable: true, description: "Only products of this class (one of the workspace's)" })
  productClassId?: number;
}

@InputType()
export class VariantInput {
  @Field()
  variantName!: string;

  @Field({ description: 'Unique in the workspace' })
  itemSkuCode!: string;

  @Field(() => Float)
  mrp!: number;

  @Field(() => Float, { description: 'Selling price, at most mrp' })
  sp!: number;

  @Field({ nullable: true })
  variantSize?: string;

  @Field(() => Int, { nullable: true })
  variantQuantity?: number;

  @Field(() => Int, { nullable: true })
  containerQuantity?: number;

  @Field(() => Float, {
    nullable: true,
    description: "How much of the product class's unit one piece holds, > 0 with at most 3 decimals (default 1)",
  })
  unitQuantity?: number;
}

@InputType({ description: 'A new product with its variants (admins only).' })
export class CreateProductInput {
  @Field()
  productName!: string;

  @Field(() => Int)
  productClassId!: number;

  @Field({ nullable: true, description: 'HSN code, 4 to 8 digits' })
  productHsn?: string;

  @Field({ nullable: true, description: '#RRGGBB' })
  productColorCode?: string;

  @Field({ nullable: true })
  productDescription?: string;

  @Field(() => String, { nullable: true })
  productImage?: string | null;

  @Field(() => [VariantInput], { nullable: true })
  variants?: VariantInput[];
}

@InputType({ description: 'A change to a product (admins only); omitted fields stay, productImage null removes the image.' })
export class UpdateProductInput {
  @Field({ nullable: true })
  productName?: string;

  @Field(() => Int, { nullable: true })
  productClassId?: number;

  @Field({ nullable: true, description: 'HSN code, 4 to 8 digits' })
  productHsn?: string;

  @Field({ nullable: true, description: '#RRGGBB' })
  productColorCode?: string;

  @Field({ nullable: true })
  productDescription?: string;

  @Field(() => String, { nullable: true })
  productImage?: string | null;

  @Field(() => ActiveStatus, { nullable: true, description: 'INACTIVE stops new orders for it; old orders keep it' })
  status?: ActiveStatus;
}

@InputType({ description: "A change to a product's variant (admins only); omitted fields stay, a new price applies to new orders only." })
export class UpdateVariantInput {
  @Field({ nullable: true })
  variantName?: string;

  @Field({ nullable: true, description: 'Unique in the workspace' })
  itemSkuCode?: string;

  @Field(() => Float, { nullable: true })
  mrp?: number;

  @Field(() => Float, { nullable: true, description: 'Selling price, at most mrp' })
  sp?: number;

  @Field({ nullable: true })
  variantSize?: string;

  @Field(() => Int, { nullable: true })
  variantQuantity?: number;

  @Field(() => Int, { nullable: true })
  containerQuantity?: number;

  @Field(() => Float, { nullable: true })
  unitQuantity?: number;

  @Field(() => ActiveStatus, { nullable: true, description: 'INACTIVE stops new orders for it; old orders keep it' })
  status?: ActiveStatus;
}
