import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { Budget } from '../../graphql/budget';
import type { GraphqlContext } from '../../graphql/context';
import { COST } from '../../graphql/costs';
import { InGroup } from '../../graphql/route-group';
import { BeatProductivityInput, BeatProductivityReport } from './beat-productivity.types';
import { SalesReport, SalesReportInput } from './sales-report.types';

@Authorized()
@Resolver()
export class ReportsResolver {
  // Spends the report budget as GET /reports/* does (20 a minute, 200 an hour per caller).
  @InGroup('reports')
  @Budget('reports')
  @Query(() => SalesReport, {
    complexity: COST.salesReport,
    description: 'Value and quantity of order lines (cancelled orders excluded) by period and optionally a group, with totals (staff; employees see the orders they booked). Counts toward the report rate limit.',
  })
  salesReport(@Arg('filter', () => SalesReportInput) filter: SalesReportInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SalesReport> {
    return services.salesReport.report(ctx, filter);
  }

  @InGroup('reports')
  @Budget('reports')
  @Query(() => BeatProductivityReport, {
    complexity: COST.beatProductivity,
    description: 'Per active employee with a beat plan or a visit on the day: planned, total and productive calls, rates, lines per call, order value, time in field, no-sale reasons and a 0–100 score with its components and reasons (staff; employees see themselves). Counts toward the report rate limit.',
  })
  beatProductivity(
    @Arg('filter', () => BeatProductivityInput, { nullable: true }) filter: BeatProductivityInput | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<BeatProductivityReport> {
    return services.beatProductivity.report(ctx, filter ?? {});
  }
}
