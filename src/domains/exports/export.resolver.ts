import type { GraphQLScalarType } from 'graphql';
import { Arg, Authorized, Ctx, Field, Float, InputType, Int, Mutation, ObjectType, Query, registerEnumType, Resolver } from 'type-graphql';
import { Budget } from '../../graphql/budget';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { COST } from '../../graphql/costs';
import type { DomainCatalog } from '../domain-module';
import { ExportCatalog } from './export-catalog';
import { ExportStatus } from './export-job.entity';
import { ExportFormat } from './export-formats';
import type { ExportJobView } from './export-jobs';
import type { ExportFilters } from './export-source';

@ObjectType('Export', { simpleResolvers: true, description: 'An export job and, once ready, where to download its file.' })
class ExportJobType {
  @Field(() => Int) id!: number;
  /** Its GraphQL type, the ExportKind enum of the domains' kinds, is declared by exportResolvers. */
  kind!: string;
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

/** An enum value's name for a kind: `beat-productivity` → BEAT_PRODUCTIVITY. */
const enumName = (kind: string) => kind.toUpperCase().replace(/-/g, '_');

const capitalized = (text: string) => text[0].toUpperCase() + text.slice(1);

/** The given filters without GraphQL's explicit nulls. */
function filtersOf(input: Record<string, unknown> | null | undefined): ExportFilters {
  return Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== null && value !== undefined)) as ExportFilters;
}

/**
 * The export mutations and queries, with the ExportKind enum and the ExportFiltersInput of every
 * kind the domains declare (their modules' `exports`): a new kind needs no edit here.
 */
export function exportResolvers(domains: DomainCatalog): Function[] {
  const catalog = new ExportCatalog(domains.exportSources);
  const ExportKind: Record<string, string> = Object.fromEntries(catalog.sources.map((s) => [enumName(s.kind), s.kind]));
  registerEnumType(ExportKind, {
    name: 'ExportKind',
    description: 'What an export lists.',
    valuesConfig: Object.fromEntries(catalog.sources.map((s) => [enumName(s.kind), { description: capitalized(s.description) + '.' }])),
  });
  Field(() => ExportKind)(ExportJobType.prototype, 'kind');

  @InputType({ description: 'Filters of an export; each kind takes its own (others are refused).' })
  class ExportFiltersInput {}
  for (const { name, filter, kinds } of catalog.filters()) {
    Field(filter.graphqlType as () => GraphQLScalarType, { nullable: true, description: `${capitalized(kinds.join(' and '))}: ${filter.description}.` })(ExportFiltersInput.prototype, name);
  }

  @Authorized()
  @Resolver()
  class ExportResolver {
    // It reads, as GET /exports/* does: API keys need `read` and the exports scope, not `write`.
    @InGroup('exports', { readsOnly: true })
    @Budget('exports')
    @Mutation(() => ExportJobType, {
      complexity: COST.write,
      description: 'Queues an export job (workspace administrators and API keys with read and exports); the filters and the PDF row cap are checked now. Counts toward the export rate limit.',
    })
    async startExport(
      @Arg('kind', () => ExportKind) kind: string,
      @Arg('format', () => ExportFormat, { defaultValue: ExportFormat.XLSX }) format: ExportFormat,
      @Arg('filters', () => ExportFiltersInput, { nullable: true }) filters: Record<string, unknown> | null,
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
  return [ExportResolver];
}
