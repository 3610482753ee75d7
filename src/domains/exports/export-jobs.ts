import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../../jobs/enqueue';
import type { RequestContext } from '../../context/request-context';
import { scopeToOrganization } from '../../db/tenant-filter';
import { AppError, ForbiddenError, GoneError, NotFoundError } from '../../errors/app-error';
import { ChunkWriter, deleteChunks, readChunks } from './chunk-store';
import type { DownloadLink, DownloadLinks } from './download-links';
import { ExportJob, ExportStatus } from './export-job.entity';
import { CONTENT_TYPES } from './export-formats';
import type { ExportRequest, ExportService } from './export.service';

/** How long a finished export's file is kept (then the cron task deletes it). */
export const EXPORT_FILE_RETENTION_MS = 24 * 60 * 60_000;
/** Runs of a job before it is given up (failures other than refusals are retried). */
export const EXPORT_JOB_MAX_ATTEMPTS = 3;
/** Jobs that never finished are deleted this long after they were asked for. */
const UNFINISHED_RETENTION = '7 days';

/** An export job and, when its file is ready, a fresh download link. */
export interface ExportJobView {
  job: ExportJob;
  download: DownloadLink | null;
}

/** A file being downloaded. */
export interface ExportDownload {
  fileName: string;
  contentType: string;
  byteSize: number;
  body: NodeJS.ReadableStream;
}

/**
 * Export jobs: asked for over GraphQL (`startExport`), run by the job worker (`run_export`),
 * their files kept in PostgreSQL for EXPORT_FILE_RETENTION_MS and fetched by pre-signed link.
 */
export class ExportJobService {
  constructor(
    readonly exports: ExportService,
    private readonly links: DownloadLinks,
  ) {}

  /** Checks the request as a download would (400s now, not later), records the job and queues it in one transaction. */
  async start(ctx: RequestContext, request: ExportRequest): Promise<ExportJobView> {
    const plan = await this.exports.plan(ctx, request);
    const job = await ctx.em.transactional(async (tx) => {
      const created = tx.create(ExportJob, {
        organizationId: ctx.organizationId,
        kind: request.kind,
        format: request.format,
        filters: plan.filters,
        rowsTotal: plan.total,
        fileName: plan.fileName,
        requestedByUserId: ctx.userId,
        requestedByApiKeyId: ctx.apiKeyId,
      });
      await tx.flush();
      await enqueue(tx, 'run_export', { organizationId: ctx.organizationId, exportJobId: created.id }, { maxAttempts: EXPORT_JOB_MAX_ATTEMPTS, jobKey: `export-${created.id}` });
      return created;
    });
    return { job, download: null };
  }

  /**
   * One export job of the caller's workspace (404 for another's); its download link is absolute,
   * under PUBLIC_API_URL or else `requestBaseUrl()`, the base URL the request came to.
   */
  async get(ctx: RequestContext, id: number, requestBaseUrl: () => string): Promise<ExportJobView> {
    ctx.requireAdminOrKey();
    const job = await ctx.em.findOne(ExportJob, { id });
    if (!job) throw new NotFoundError('Export', id);
    return { job, download: this.linkOf(job, requestBaseUrl) };
  }

  private linkOf(job: ExportJob, requestBaseUrl: () => string): DownloadLink | null {
    if (job.status !== ExportStatus.READY || !job.expiresAt || job.expiresAt.getTime() <= Date.now()) return null;
    return this.links.issue(job.organizationId, job.id, job.expiresAt, requestBaseUrl);
  }

  /**
   * Runs one job (the worker's `run_export`) with an EntityManager not yet scoped to a workspace.
   * A refusal (e.g. the production unit was deleted meanwhile) fails the job for good with its
   * message; any other failure is retried until the last attempt. Re-running a job starts over.
   */
  async run(unscoped: EntityManager, organizationId: number, id: number, lastAttempt: boolean): Promise<void> {
    const em = unscoped.fork();
    scopeToOrganization(em, organizationId);
    const job = await em.findOne(ExportJob, { id });
    if (!job || job.status === ExportStatus.READY || job.status === ExportStatus.FAILED) return;
    await deleteChunks(em, organizationId, id);
    Object.assign(job, { status: ExportStatus.RUNNING, startedAt: new Date(), rowsDone: 0, error: null });
    await em.flush();
    try {
      const plan = await this.exports.writer.plan(em, organizationId, { kind: job.kind, format: job.format, filters: job.filters });
      job.rowsTotal = plan.total;
      await em.flush();
      const file = new ChunkWriter(em.fork(), organizationId, id);
      const rows = await this.exports.writer.write(em, plan, file, (done) =>
        em.execute('update export_job set rows_done = ? where organization_id = ? and id = ?', [done, organizationId, id]).then(() => undefined),
      );
      const finishedAt = new Date();
      Object.assign(job, {
        status: ExportStatus.READY,
        rowsDone: rows,
        rowsTotal: Math.max(rows, plan.total),
        byteSize: file.bytes,
        fileName: plan.fileName,
        finishedAt,
        expiresAt: new Date(finishedAt.getTime() + EXPORT_FILE_RETENTION_MS),
      });
      await em.flush();
    } catch (err) {
      const refused = err instanceof AppError;
      const failed = refused || lastAttempt;
      // A run that will be retried says nothing yet: the job is simply queued again.
      Object.assign(job, {
        status: failed ? ExportStatus.FAILED : ExportStatus.QUEUED,
        error: refused ? err.message : failed ? 'The export could not be written; start it again' : null,
        finishedAt: failed ? new Date() : null,
      });
      await em.flush();
      await deleteChunks(em, organizationId, id);
      if (!refused) throw err;
    }
  }

  /**
   * The file behind a download link. The link is the credential: its signature must be ours for
   * this export (403 otherwise). A request that also carries a credential must come from the
   * export's own workspace (404 otherwise). A file past its retention is 410 (until the hourly
   * clean-up deletes its record); an expired link to a kept file is 403.
   */
  async download(ctx: RequestContext, link: { id: number; expires: number; signature: string }): Promise<ExportDownload> {
    const callerOrganizationId = ctx.principal?.organizationId ?? null;
    // The link names the workspace: its owner is looked up across workspaces, then read inside its own.
    const [owner] = await ctx.em.execute<{ organization_id: number }[]>('select organization_id from export_job where id = ?', [link.id]);
    if (!owner || !this.links.verify(owner.organization_id, link.id, link.expires, link.signature)) {
      throw new ForbiddenError('This download link is not valid');
    }
    if (callerOrganizationId !== null && callerOrganizationId !== owner.organization_id) throw new NotFoundError('Export', link.id);
    const em = ctx.em.fork();
    scopeToOrganization(em, owner.organization_id);
    const job = await em.findOne(ExportJob, { id: link.id });
    // The file's retention first: a link never outlives its file, so past it every link has expired too.
    if (!job || job.status !== ExportStatus.READY || !job.expiresAt || job.expiresAt.getTime() <= Date.now()) {
      throw new GoneError('This export file has expired and was deleted: start a new export');
    }
    if (link.expires * 1000 <= Date.now()) throw new ForbiddenError('This download link has expired: ask for the export again to get a new one');
    return { fileName: job.fileName, contentType: CONTENT_TYPES[job.format], byteSize: job.byteSize ?? 0, body: readChunks(em, job.organizationId, job.id, job.byteSize ?? 0) };
  }

  /** Deletes files past their retention and jobs that never finished within UNFINISHED_RETENTION (chunks go with them). */
  async deleteExpired(unscoped: EntityManager): Promise<number> {
    const deleted = await unscoped.execute<{ id: number }[]>(
      `delete from export_job where expires_at <= now() or (expires_at is null and created_at < now() - interval '${UNFINISHED_RETENTION}') returning id`,
    );
    return deleted.length;
  }
}
