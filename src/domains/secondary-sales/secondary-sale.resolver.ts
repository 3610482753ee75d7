import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import type { SecondarySaleRead } from './secondary-sale-read';
import { SecondarySale, SecondarySaleLine } from './secondary-sale.entity';
import { RecordSecondarySaleInput, SecondarySaleListArgs, SecondaryStock } from './secondary-sale.types';

const SecondarySalePage = PageOf(SecondarySale, 'SecondarySale');
type SaleRow = Row<SecondarySale> & { lines: Array<Row<SecondarySaleLine>> };
/** GraphQL's row of a secondary sale: its lines come with it. */
const rowOfRead = ({ sale, lines }: SecondarySaleRead): SaleRow => ({ ...sale, lines });

@Authorized()
@Resolver()
export class SecondarySaleResolver {
  @InGroup('secondary_sales')
  @Query(() => SecondarySalePage, { complexity: pageCost(), description: 'Secondary sales, newest invoice first (distributors: their own; retailers: those to them).' })
  async secondarySales(@Args(() => SecondarySaleListArgs) args: SecondarySaleListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<SaleRow>> {
    const { page, limit, sort, search, ...filter } = args;
    const found = await services.secondarySales.list(ctx, { ...filter, search: search ?? undefined }, { page, limit, sort });
    return toPage({ ...found, items: found.items.map(rowOfRead) });
  }

  @InGroup('secondary_sales')
  @Query(() => SecondarySale, { complexity: COST.record, description: 'One secondary sale (distributors: their own; retailers: those to them).' })
  async secondarySale(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<SaleRow> {
    return rowOfRead(await services.secondarySales.get(ctx, id));
  }

  @InGroup('secondary_sales')
  @Query(() => SecondaryStock, { complexity: listCost(COST.property, 50), description: "A distributor's sell-in (delivered primary orders) against sell-out (secondary sales) per variant up to a day, flagged when negative." })
  async secondaryStock(
    @Arg('distributorId', () => Int, { nullable: true, description: 'Required of staff and keys; a distributor reads their own' }) distributorId: number | null,
    @Arg('dateTo', () => String, { nullable: true, description: 'YYYY-MM-DD (default: today)' }) dateTo: string | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<SecondaryStock> {
    return services.secondarySales.stock(ctx, { distributorId, dateTo });
  }

  @InGroup('secondary_sales')
  @Mutation(() => SecondarySale, { complexity: COST.write, description: 'Records a distributor’s invoice to a retailer; a re-send with the same clientRef answers the same sale.' })
  async recordSecondarySale(@Arg('input', () => RecordSecondarySaleInput) input: RecordSecondarySaleInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SaleRow> {
    return rowOfRead((await services.secondarySales.record(ctx, input)).read);
  }
}

@Resolver(() => SecondarySale)
export class SecondarySaleFieldsResolver {
  @FieldResolver(() => [SecondarySaleLine], { complexity: listCost(COST.property, 8), description: 'Its lines.' })
  lines(@Root() sale: Partial<SaleRow>): Array<Row<SecondarySaleLine>> {
    return sale.lines ?? [];
  }

  @FieldResolver(() => Int, { complexity: COST.property, description: 'The distributor who sold.' })
  distributorId(@Root() sale: Pick<Row<SecondarySale>, 'distributor'>): number {
    return sale.distributor;
  }

  @FieldResolver(() => Int, { complexity: COST.property, description: 'The retailer sold to.' })
  retailerId(@Root() sale: Pick<Row<SecondarySale>, 'retailer'>): number {
    return sale.retailer;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Who booked it (null: an API key).' })
  bookedByUserId(@Root() sale: Pick<Row<SecondarySale>, 'bookedBy'>): number | null {
    return sale.bookedBy;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The field visit it was taken at.' })
  visitId(@Root() sale: Pick<Row<SecondarySale>, 'visit'>): number | null {
    return sale.visit;
  }
}

@Resolver(() => SecondarySaleLine)
export class SecondarySaleLineFieldsResolver {
  @FieldResolver(() => Int, { complexity: COST.property })
  productVariantId(@Root() line: Pick<Row<SecondarySaleLine>, 'variant'>): number {
    return line.variant;
  }
}
