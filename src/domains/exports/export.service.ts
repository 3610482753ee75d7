import { PassThrough, type Readable } from 'node:stream';
import type { RequestContext } from '../../context/request-context';
import { ExportFormat } from './export-formats';
import type { ExportPlan, ExportRequest, ExportWriter } from './export-writer';

export type { ExportPlan, ExportRequest } from './export-writer';

/** An export file, ready to be sent: a PDF whole, an XLSX or CSV as the stream it is being written into. */
export interface ExportFile {
  fileName: string;
  contentType: string;
  /** A stream fails (is destroyed with the error) if writing stops half-way. */
  body: Buffer | Readable;
}

/**
 * The domains' export kinds as files, for a request's caller: workspace administrators and API
 * keys (their scopes decide). The REST downloads and the export jobs both start here.
 */
export class ExportService {
  /** `writer`: the writing engine, shared with the job worker (which has no request). */
  constructor(readonly writer: ExportWriter) {}

  /** Checks an export for the caller: filters, row count and PDF cap; every refusal comes here, before a byte is written. */
  plan(ctx: RequestContext, request: ExportRequest): Promise<ExportPlan> {
    ctx.requireAdminOrKey();
    return this.writer.plan(ctx.em, ctx.organizationId, request);
  }

  /**
   * The file of an export, once planned (so every 400 comes first): a PDF is laid out whole; an
   * XLSX or CSV streams from the database cursor as it is written.
   */
  async file(ctx: RequestContext, request: ExportRequest): Promise<ExportFile> {
    const plan = await this.plan(ctx, request);
    const described = { fileName: plan.fileName, contentType: plan.contentType };
    if (plan.format === ExportFormat.PDF) return { ...described, body: (await this.writer.pdfOf(ctx.em, plan)).bytes };
    const body = new PassThrough();
    this.writer.write(ctx.em, plan, body).catch((err: unknown) => body.destroy(err as Error));
    return { ...described, body };
  }
}
