import { Arg, Authorized, Ctx, Field, Float, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Budget } from '../../graphql/budget';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { ActiveStatus } from '../../db/active-status';
import { OrderStatus } from '../orders/order.entity';
import { UserType } from '../users/user.entity';
import { ExportStatus } from './export-job.entity';
import { ExportFormat, ExportKind, type ExportFilters } from './export-kinds';
import type { ExportJobView } from './export-jobs';
import { COST } from '../../graphql/costs';

@InputType({ description: 'Filters of an export; each kind takes its own (others are refused).' })
class ExportFiltersInput {
  @Field(() => OrderStatus, { nullable: true, description: 'Orders.' })
  orderStatus?: OrderStatus | null;

  @Field(() => String, { nullable: true, description: 'Orders and sales: order date from, YYYY-MM-DD (inclusive).' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'Orders and sales: order date to, YYYY-MM-DD (inclusive).' })
  dateTo?: string | null;

  @Field(() => Int, { nullable: true, description: 'Orders.' })
  productionUnitId?: number | null;

  @Field(() => UserType, { nullable: true, description: 'Users.' })
  userType?: UserType | null;

  @Field(() => ActiveStatus, { nullable: true, description: 'Users.' })
  userStatus?: ActiveStatus | null;
}

@ObjectType('Export', { simpleResolvers: true, description: 'An export job and, once ready, where to download its file.' })
class ExportJobType {
  @Field(() => Int) id!: number;
  @Field(() => ExportKind) kind!: ExportKind;
  @Field(() => ExportFormat) format!: ExportFormat;
  @Field(() => ExportStatus) status!: ExportStatus;
  @Field(() => Int, { description: 'Rows written so far.' }) rowsDone!: number;
  @Field(() => Int, { nullable: true, description: 'Rows the export holds (counted when it starts).' }) rowsTotal!: number | null;
  @Field(() => Float, { description: 'rowsDone / rowsTotal, 0 to 1 (1 when ready).' }) progress!: number;
  @Field() fileName!: string;
  @Field(() => Int, { nullable: true, description: 'Bytes of the file, once ready.' }) byteSize!: number | null;
  @Field(() => String, { nullable: true, description: 'Why it failed.' }) error!: string | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the file is deleted.' }) expiresAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description:
      'When ready: an absolute pre-signed URL (…/api/v1/exports/files/{id}?expires=…&signature=…, under PUBLIC_API_URL or else the base URL this request came to) that works without a credential or browser User-Agent until downloadUrlExpiresAt (15 minutes); ask again for a fresh one.',
  })
  downloadUrl!: string | null;
  @Field(() => Date, { nullable: true }) downloadUrlExpiresAt!: Date | null;
}

function present({ job, download }: ExportJobView): ExportJobType {
  const ready = job.status === ExportStatus.READY;
  const progress = ready ? 1 : job.rowsTotal ? Math.min(job.rowsDone / job.rowsTotal, 1) : 0;
  return {
    id: job.id,
    kind: job.kind,
    format: job.format,
    status: job.status,
    rowsDone: job.rowsDone,
    rowsTotal: job.rowsTotal,
    progress: Math.round(progress * 1000) / 1000,
    fileName: job.fileName,
    byteSize: job.byteSize,
    error: job.error,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    expiresAt: job.expiresAt,
    downloadUrl: download?.url ?? null,
    downloadUrlExpiresAt: download?.expiresAt ?? null,
  };
}

/** The given filters without GraphQL's explicit nulls. */
function filtersOf(input: ExportFiltersInput | null | undefined): ExportFilters {
  return Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== null && value !== undefined));
}

@Authorized()
@Resolver()
export class ExportResolver {
  // It reads, as GET /exports/* does: API keys need `read` and the exports scope, not `write`.
  @InGroup('exports', { readsOnly: true })
  @Budget('exports')
  @Mutation(() => ExportJobType, {
    complexity: COST.write,
    description: 'Queues an export job (workspace administrators and API keys with read and exports); the filters and the PDF row cap are checked now. Counts toward the export rate limit.',
  })
  async startExport(
    @Arg('kind', () => ExportKind) kind: ExportKind,
    @Arg('format', () => ExportFormat, { defaultValue: ExportFormat.XLSX }) format: ExportFormat,
    @Arg('filters', () => ExportFiltersInput, { nullable: true }) filters: ExportFiltersInput | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<ExportJobType> {
    return present(await services.exportJobs.start(ctx, { kind, format, filters: filtersOf(filters) }));
  }

  @InGroup('exports')
  @Query(() => ExportJobType, { complexity: COST.record, name: 'export', description: 'An export job of this workspace: status, progress and, once ready, a download URL.' })
  async exportJob(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, requestBaseUrl }: GraphqlContext): Promise<ExportJobType> {
    return present(await services.exportJobs.get(ctx, id, requestBaseUrl));
  }
}
