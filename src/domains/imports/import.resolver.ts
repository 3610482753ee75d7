import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { ValidationError } from '../../errors/app-error';
import { COST, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { ImportJob } from './import-job.entity';
import { ImportFileInput, ImportListArgs, ImportResult } from './import.types';
import type { ImportRead } from './import.service';

const ImportPage = PageOf(ImportJob, 'Import');

const resultOf = (read: ImportRead) => ({ import: read.job, failedRows: read.failedRows }) as unknown as ImportResult;

@Authorized()
@Resolver()
export class ImportResolver {
  @InGroup('imports')
  @Query(() => ImportPage, { complexity: pageCost(), description: 'Imports, newest first (admins and API keys).' })
  async imports(@Args(() => ImportListArgs) args: ImportListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<Row<ImportJob>>> {
    const { page, limit, sort, ...filter } = args;
    return toPage(await services.imports.list(ctx, filter, { page, limit, sort }));
  }

  @InGroup('imports')
  @Query(() => ImportResult, { complexity: COST.record, description: 'One import with its status, progress, counts and first failed rows.' })
  async import(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<ImportResult> {
    return resultOf(await services.imports.get(ctx, id));
  }

  @InGroup('imports')
  @Mutation(() => ImportResult, {
    complexity: COST.write,
    description: 'Imports a CSV or XLSX file (admins and API keys): every row checked, then written all or nothing (see the README, Imports). Files over 5,000 rows, or async, run as a job: poll import(id).',
  })
  async importFile(@Arg('input', () => ImportFileInput) input: ImportFileInput, @Ctx() { ctx, services }: GraphqlContext): Promise<ImportResult> {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(input.contentBase64)) throw new ValidationError('contentBase64', 'must be base64');
    const data = Buffer.from(input.contentBase64, 'base64');
    return resultOf(await services.imports.start(ctx, { kind: input.kind, fileName: input.fileName, data, dryRun: input.dryRun, partial: input.partial, async: input.async }));
  }
}
