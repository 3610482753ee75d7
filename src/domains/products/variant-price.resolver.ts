import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { COST, pageCost } from '../../graphql/costs';
import { ProductVariant } from './product-variant.entity';
import { VariantPrice } from './variant-price.entity';
import { RateListArgs, RateListEntry, VariantPriceInput, VariantPriceListArgs } from './variant-price.types';

const VariantPricePage = PageOf(VariantPrice, 'VariantPrice');
const RateListPage = PageOf(RateListEntry, 'RateList');

/** The price history and the rate list (prices in force on a day). */
@Resolver(() => VariantPrice)
export class VariantPriceResolver {
  @Authorized()
  @InGroup('products')
  @Query(() => VariantPricePage, { complexity: pageCost(), description: "A variant's price history, latest effective day first." })
  async variantPrices(@Args(() => VariantPriceListArgs) args: VariantPriceListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<Row<VariantPrice>>> {
    const { variantId, page, limit, sort } = args;
    return toPage(await services.prices.history(ctx, variantId, { page, limit, sort }));
  }

  @Authorized()
  @InGroup('products')
  @Query(() => RateListPage, { complexity: pageCost(), description: "The price in force of every variant on a day (default today), by SKU code; a variant created later is not listed." })
  async rateList(@Args(() => RateListArgs) args: RateListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<RateListEntry>> {
    const { page, limit, sort, date, search, status, productId } = args;
    const found = await services.prices.rateList(ctx, { date: date ?? undefined, search: search ?? undefined, status: status ?? undefined, productId: productId ?? undefined }, { page, limit, sort });
    return toPage(found);
  }

  @Authorized()
  @InGroup('products')
  @Mutation(() => VariantPrice, {
    complexity: COST.write,
    description: "Admins only. A new version of a variant's prices from a day (today or later): today's changes the variant's prices now, a later one when its day comes. Orders already placed keep their prices.",
  })
  async changeVariantPrice(
    @Arg('variantId', () => Int) variantId: number,
    @Arg('input', () => VariantPriceInput) input: VariantPriceInput,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<VariantPrice>> {
    return services.prices.change(ctx, variantId, input);
  }

  @FieldResolver(() => Int, { complexity: COST.property })
  variantId(@Root() price: Row<VariantPrice>): number {
    return price.variant;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The user who wrote it, when one did.' })
  createdByUserId(@Root() price: Row<VariantPrice>): number | null {
    return price.createdBy;
  }

  @FieldResolver(() => ProductVariant, { complexity: COST.relation })
  variant(@Root() price: Row<VariantPrice>, @Ctx() { loaders }: GraphqlContext): Related<Row<ProductVariant>> {
    return loaders.variant.load(price.variant);
  }
}
