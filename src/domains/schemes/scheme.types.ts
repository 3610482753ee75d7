import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { SchemeBudgetKind, SchemeKind, SchemeScope, SchemeSlab, SchemeStatus, SchemeTarget } from './scheme.entity';
import { SCHEME_SORT } from './scheme.service';

@ArgsType()
export class SchemeListArgs extends SortedPageArgs(SCHEME_SORT) {
  @Field(() => SchemeStatus, { nullable: true })
  status?: SchemeStatus | null;

  @Field(() => SchemeKind, { nullable: true })
  kind?: SchemeKind | null;

  @Field(() => SchemeTarget, { nullable: true })
  targetKind?: SchemeTarget | null;

  @Field(() => Int, { nullable: true, description: 'With targetKind' })
  targetId?: number | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: active schemes valid on that local day' })
  activeOn?: string | null;

  @Field(() => String, { nullable: true, description: 'Matches name or code' })
  search?: string | null;
}

@InputType('SchemeSlabInput')
export class SchemeSlabInput {
  @Field(() => Int)
  minQty!: number;

  @Field(() => Float, { nullable: true })
  discountPercent?: number | null;

  @Field(() => Float, { nullable: true, description: 'Off each unit' })
  discountAmount?: number | null;

  @Field(() => Int, { nullable: true })
  freeQty?: number | null;

  @Field(() => Int, { nullable: true, description: 'Default: the target variant' })
  freeVariantId?: number | null;

  @Field(() => Boolean, { nullable: true })
  recursive?: boolean | null;
}

@InputType({ description: 'A scheme; on update, only the fields given change.' })
export class SchemeInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) code?: string;
  @Field(() => SchemeKind, { nullable: true }) kind?: number;
  @Field(() => SchemeTarget, { nullable: true }) targetKind?: number;
  @Field(() => Int, { nullable: true }) targetId?: number;
  @Field(() => SchemeScope, { nullable: true }) scope?: number | null;
  @Field(() => [Int], { nullable: true }) scopeIds?: number[] | null;
  @Field({ nullable: true }) validFrom?: string;
  @Field(() => String, { nullable: true }) validTo?: string | null;
  @Field(() => Int, { nullable: true }) priority?: number | null;
  @Field(() => Boolean, { nullable: true }) stackable?: boolean | null;
  @Field(() => SchemeBudgetKind, { nullable: true }) budgetKind?: number | null;
  @Field(() => Float, { nullable: true }) budget?: number | null;
  @Field(() => SchemeStatus, { nullable: true }) status?: number | null;
  @Field(() => [SchemeSlabInput], { nullable: true }) slabs?: SchemeSlabInput[];
}

@InputType('SchemeCartLineInput')
export class SchemeCartLineInput {
  @Field(() => Int) productVariantId!: number;
  @Field(() => Int) quantity!: number;
}

@InputType({ description: 'A cart to preview.' })
export class SchemePreviewInput {
  @Field(() => Int, { nullable: true, description: "Required for staff and keys; a customer's own by default" })
  customerId?: number | null;

  @Field(() => [SchemeCartLineInput])
  items!: SchemeCartLineInput[];

  @Field(() => String, { nullable: true, description: "YYYY-MM-DD; default the workspace's today" })
  date?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class SchemePreviewLine {
  @Field(() => Int) productVariantId!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Float) unitPrice!: number;
  @Field(() => Float) grossAmount!: number;
  @Field(() => Float) discountAmount!: number;
  @Field(() => Float) amount!: number;
  @Field(() => [Int]) schemeIds!: number[];
}

@ObjectType({ simpleResolvers: true })
export class SchemePreviewFreeLine {
  @Field(() => Int) productVariantId!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Float) unitPrice!: number;
  @Field(() => Float) amount!: number;
  @Field(() => Int) schemeId!: number;
}

@ObjectType({ simpleResolvers: true })
export class SchemeNextSlab {
  @Field(() => Int) addQuantity!: number;
  @Field(() => Int) minQty!: number;
  @Field() message!: string;
}

@ObjectType({ simpleResolvers: true })
export class SchemePreviewSlab {
  @Field(() => Int) minQty!: number;
  @Field(() => Float, { nullable: true }) discountPercent!: number | null;
  @Field(() => Float, { nullable: true }) discountAmount!: number | null;
  @Field(() => Int, { nullable: true }) freeQty!: number | null;
  @Field(() => Int, { nullable: true }) freeVariantId!: number | null;
  @Field() recursive!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class SchemeOutcome {
  @Field(() => Int) schemeId!: number;
  @Field() code!: string;
  @Field() name!: string;
  @Field() applied!: boolean;
  @Field({ description: 'applied, disabled, not_started, expired, customer_not_eligible, no_matching_lines, blocked_by_other_scheme, below_first_slab, budget_spent, free_variant_unavailable' })
  reason!: string;
  @Field() explanation!: string;
  @Field(() => Int, { description: 'The quantity of its target the scheme counted' }) quantity!: number;
  @Field(() => SchemePreviewSlab, { nullable: true }) slab!: SchemePreviewSlab | null;
  @Field(() => Float) discountAmount!: number;
  @Field(() => Int) freeUnits!: number;
  @Field(() => SchemeNextSlab, { nullable: true }) next!: SchemeNextSlab | null;
}

@ObjectType({ simpleResolvers: true })
export class SchemePreview {
  @Field(() => Int) customerId!: number;
  @Field() date!: string;
  @Field(() => [SchemePreviewLine]) lines!: SchemePreviewLine[];
  @Field(() => [SchemePreviewFreeLine]) freeLines!: SchemePreviewFreeLine[];
  @Field(() => Float) grossTotal!: number;
  @Field(() => Float) discountTotal!: number;
  @Field(() => Float) total!: number;
  @Field(() => [SchemeOutcome]) schemes!: SchemeOutcome[];
}

export { SchemeSlab };
