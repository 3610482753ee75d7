import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../../jobs/enqueue';
import type { RequestContext } from '../../context/request-context';
import { rowOf, type Row } from '../../db/entity-rows';
import { scopeToOrganization } from '../../db/tenant-filter';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { AppError, NotFoundError, ValidationError } from '../../errors/app-error';
import { entityList, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import { sortable } from '../../lists/sort';
import * as rules from '../../validation/rules';
import { executeBound } from './bound-sql';
import { csvLine } from './failed-rows-csv';
import { deleteUpload, readUpload, storeUpload } from './import-chunks';
import { formatOf, MAX_IMPORT_BYTES } from './import-file';
import type { ImportRunContext } from './import-kind';
import { ImportJob, ImportStatus } from './import-job.entity';
import { IMPORT_KINDS, importKindOf } from './import-kinds';
import { readKindFile, runImport, type RunResult } from './import-run';
import { templateOf } from './import-template';

/** Files with more data rows than this run as a job (as does any file sent with `async`). */
export const INLINE_ROW_LIMIT = 5_000;
/** Failed rows an answer lists (all of them are in the failed rows CSV). */
export const LISTED_FAILED_ROWS = 100;
/** Runs of a job before it is given up. */
export const IMPORT_JOB_MAX_ATTEMPTS = 3;

/** An upload, as the adapters hand it over. */
export interface ImportUpload {
  kind: string;
  fileName: string;
  contentType?: string;
  data: Buffer;
  dryRun?: boolean;
  partial?: boolean;
  /** Run as a job whatever the size. */
  async?: boolean;
}

/** A failed row as answers list it. */
export interface FailedRowRead {
  rowNumber: number;
  field: string;
  message: string;
}

/** An import and its first LISTED_FAILED_ROWS failed rows. */
export interface ImportRead {
  job: Row<ImportJob>;
  failedRows: FailedRowRead[];
}

export const IMPORT_SORT = sortable<keyof ImportJob & string>({
  name: 'Import',
  fields: { created_at: 'createdAt', kind: 'kind', status: 'status', id: 'id' },
  default: '-created_at',
});
const IMPORT_LIST = entityList({ entity: ImportJob, sort: IMPORT_SORT, searchIn: ['fileName'] });

/** Filters of the import list. */
export interface ImportFilter {
  kind?: string | null;
  status?: string | null;
  search?: string | null;
}

const STATUSES = Object.values(ImportStatus) as string[];

/**
 * Imports of CSV and XLSX files of the kinds in import-kinds.ts: checked row by row, then written
 * all or nothing in one transaction (or the valid rows only, with `partial`), at once for small
 * files and by the job worker (`run_import`) for files over INLINE_ROW_LIMIT rows. Admins and API
 * keys only, as the catalogue and scheme writes they make.
 */
export class ImportService {
  /** The kinds, for the API docs and GraphQL. */
  readonly kinds = IMPORT_KINDS;

  async start(ctx: RequestContext, upload: ImportUpload): Promise<ImportRead> {
    ctx.requireAdminOrKey();
    const kind = importKindOf(upload.kind);
    const fileName = rules.requiredText('fileName', upload.fileName.replace(/[\\/]/g, '_'), 255);
    const format = formatOf(fileName, upload.contentType);
    if (upload.data.length === 0) throw new ValidationError('file', 'is empty');
    if (upload.data.length > MAX_IMPORT_BYTES) throw new ValidationError('file', `must be at most ${MAX_IMPORT_BYTES} bytes (10 MB)`);
    const file = await readKindFile(kind, upload.data, format);
    const data = {
      organizationId: ctx.organizationId,
      kind: kind.kind,
      dryRun: upload.dryRun ?? false,
      partial: upload.partial ?? false,
      fileName,
      fileFormat: format,
      fileSha256: createHash('sha256').update(upload.data).digest('hex'),
      fileBytes: upload.data.length,
      headers: file.headers,
      totalRows: file.rows.length,
      createdByUserId: ctx.userId,
      createdByApiKeyId: ctx.apiKeyId,
    };
    if (upload.async || file.rows.length > INLINE_ROW_LIMIT) {
      // The record, its file and its job commit together.
      const queued = await ctx.em.transactional(async (tx) => {
        const created = tx.create(ImportJob, data);
        await tx.flush();
        await storeUpload(tx, ctx.organizationId, created.id, upload.data);
        await enqueue(tx, 'run_import', { organizationId: ctx.organizationId, importJobId: created.id }, { maxAttempts: IMPORT_JOB_MAX_ATTEMPTS, jobKey: `import-${created.id}` });
        return created;
      });
      return { job: rowOf(ctx.em, ImportJob, queued), failedRows: [] };
    }
    const job = ctx.em.create(ImportJob, data);
    Object.assign(job, { status: ImportStatus.RUNNING, startedAt: new Date() });
    await ctx.em.flush();
    let result: RunResult;
    try {
      result = await runImport(ctx.em, kind, file, runContextOf(job), { dryRun: job.dryRun, partial: job.partial }, async (n) => {
        job.processedRows = n;
      });
    } catch (err) {
      // The write was one transaction: nothing of it stayed. The record says so rather than "running".
      Object.assign(job, { status: ImportStatus.ERROR, error: 'The import could not be run; nothing was written: upload the file again', finishedAt: new Date() });
      await ctx.em.flush();
      throw err;
    }
    await this.finish(ctx.em, job, result);
    return this.read(ctx.em, job);
  }

  async get(ctx: RequestContext, id: number): Promise<ImportRead> {
    ctx.requireAdminOrKey();
    const job = await ctx.em.findOne(ImportJob, { id });
    if (!job) throw new NotFoundError('Import', id);
    return this.read(ctx.em, job);
  }

  async list(ctx: RequestContext, filter: ImportFilter, pageRequest: PageRequest): Promise<Paginated<Row<ImportJob>>> {
    ctx.requireAdminOrKey();
    const where: Record<string, unknown> = {};
    if (filter.kind != null) where.kind = importKindOf(filter.kind).kind;
    if (filter.status != null) where.status = rules.oneOf('status', filter.status, STATUSES);
    return readPage(ctx.em, IMPORT_LIST, where, { ...pageRequest, search: filter.search ?? undefined });
  }

  /** Every failed row as CSV: the file's own columns as uploaded plus `error` ("column: message; …"), to fix and upload again. */
  async failedRowsCsv(ctx: RequestContext, id: number): Promise<{ fileName: string; body: string }> {
    ctx.requireAdminOrKey();
    const job = await ctx.em.findOne(ImportJob, { id });
    if (!job) throw new NotFoundError('Import', id);
    const t = tenantSql(ctx.organizationId, 'f');
    const rows = await executeSql<{ row_number: number; values: Record<string, string>; error: string }>(
      ctx.em,
      sql`select f.row_number, (array_agg(f.values))[1] as values,
                 string_agg(case when f.field = '' then f.message else f.field || ': ' || f.message end, '; ' order by f.id) as error
            from import_failed_row f where ${t.owns()} and f.import_job_id = ${id} group by f.row_number order by f.row_number`,
    );
    const headers = job.headers.filter((h) => h.toLowerCase() !== 'error');
    const lines = [csvLine([...headers, 'error'])];
    for (const r of rows) lines.push(csvLine([...headers.map((h) => r.values[h] ?? ''), r.error]));
    const base = job.fileName.replace(/\.(csv|xlsx)$/i, '');
    return { fileName: `${base}-failed-rows.csv`.replace(/[^\w.-]+/g, '_'), body: `\uFEFF${lines.join('')}` };
  }

  /** The kind's template: an XLSX with its header row and one example row. */
  async template(ctx: RequestContext, kind: string): Promise<{ fileName: string; body: Buffer }> {
    ctx.requireAdminOrKey();
    const k = importKindOf(kind);
    return { fileName: `${k.kind}-template.xlsx`, body: await templateOf(k) };
  }

  /**
   * Runs one queued import (the worker's `run_import`) with an EntityManager not yet scoped. A file
   * that cannot be read is an error for good; any other failure is retried (the run is one
   * transaction, so nothing of a broken run stays) until the last attempt.
   */
  async runJob(unscoped: EntityManager, organizationId: number, id: number, lastAttempt: boolean): Promise<void> {
    const em = unscoped.fork();
    scopeToOrganization(em, organizationId);
    const job = await em.findOne(ImportJob, { id });
    if (!job || (job.status !== ImportStatus.PENDING && job.status !== ImportStatus.RUNNING)) return;
    await em.execute('delete from import_failed_row where organization_id = ? and import_job_id = ?', [organizationId, id]);
    Object.assign(job, { status: ImportStatus.RUNNING, startedAt: new Date(), processedRows: 0, error: null });
    await em.flush();
    const progress = async (n: number) => {
      await em.execute('update import_job set processed_rows = ?, updated_at = now() where organization_id = ? and id = ?', [n, organizationId, id]);
    };
    try {
      const kind = importKindOf(job.kind);
      const file = await readKindFile(kind, await readUpload(em, organizationId, id), job.fileFormat);
      const result = await runImport(em, kind, file, runContextOf(job), { dryRun: job.dryRun, partial: job.partial }, progress);
      await this.finish(em, job, result);
      await deleteUpload(em, organizationId, id);
    } catch (err) {
      const refused = err instanceof AppError;
      const failed = refused || lastAttempt;
      Object.assign(job, {
        status: failed ? ImportStatus.ERROR : ImportStatus.PENDING,
        error: refused ? err.message : failed ? 'The import could not be run; nothing was written: upload the file again' : null,
        finishedAt: failed ? new Date() : null,
      });
      await em.flush();
      if (failed) await deleteUpload(em, organizationId, id);
      if (!refused) throw err;
    }
  }

  private async finish(em: EntityManager, job: ImportJob, result: RunResult): Promise<void> {
    if (result.failed.length > 0) {
      const data = JSON.stringify(result.failed.map((f) => [f.rowNumber, f.field.slice(0, 100), f.message, f.values]));
      await executeBound(
        em,
        sql`insert into import_failed_row (organization_id, import_job_id, row_number, field, message, "values")
            select ${job.organizationId}, ${job.id}, (x->>0)::int, x->>1, x->>2, x->3 from jsonb_array_elements(${data}::jsonb) as x`,
      );
    }
    const status =
      result.failedRowCount === 0 ? ImportStatus.SUCCEEDED : result.written && !job.dryRun ? ImportStatus.PARTIAL : ImportStatus.FAILED;
    Object.assign(job, {
      status,
      processedRows: result.totalRows,
      totalRows: result.totalRows,
      validRows: result.validRows,
      failedRows: result.failedRowCount,
      ...result.counts,
      error: status === ImportStatus.FAILED && !job.dryRun ? `${result.failedRowCount} row${result.failedRowCount === 1 ? '' : 's'} failed: nothing was written` : null,
      finishedAt: new Date(),
    });
    await em.flush();
  }

  private async read(em: EntityManager, job: ImportJob): Promise<ImportRead> {
    const t = tenantSql(job.organizationId, 'f');
    const failed = await executeSql<{ row_number: number; field: string; message: string }>(
      em,
      sql`select f.row_number, f.field, f.message from import_failed_row f where ${t.owns()} and f.import_job_id = ${job.id} order by f.row_number, f.id limit ${LISTED_FAILED_ROWS}`,
    );
    return { job: rowOf(em, ImportJob, job), failedRows: failed.map((f) => ({ rowNumber: f.row_number, field: f.field, message: f.message })) };
  }
}

const runContextOf = (job: ImportJob): ImportRunContext => ({ organizationId: job.organizationId, userId: job.createdByUserId, apiKeyId: job.createdByApiKeyId, importJobId: job.id });
