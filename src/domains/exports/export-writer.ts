import type { Writable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { cellValue, ColumnTotals, displayValue, printedValue, type CellType, type CellValue } from './export-columns';
import type { ExportCatalog } from './export-catalog';
import { checkFilters } from './export-filters';
import { CONTENT_TYPES, exportFileName, ExportFormat, PDF_ROW_LIMIT } from './export-formats';
import type { LogoFetcher } from './pdf/logo-fetch';
import { PrintedRows, type Branding, type PdfInput } from './pdf/pdf-input';
import type { PdfRenderer } from './pdf/pdf-renderer';
import { plannedRows, type PlannedRows } from './planned-rows';
import { CsvWriter } from './csv-writer';
import type { ExportFilters, ExportSource } from './export-source';
import { XlsxWriter } from './xlsx-writer';

/** What is asked for: a kind, a format and the kind's filters. */
export interface ExportRequest {
  /** One of the kinds the domains declare. */
  kind: string;
  format: ExportFormat;
  filters: ExportFilters;
}

/** A checked export, counted and named, ready to be written. */
export interface ExportPlan extends ExportRequest {
  organizationId: number;
  source: ExportSource;
  /** Rows at planning time. */
  total: number;
  rows: PlannedRows;
  fileName: string;
  contentType: string;
  filterLines: string[];
  workspace: WorkspaceFacts;
}

interface WorkspaceFacts {
  name: string;
  timeZone: string;
  localDay: string;
  /** 'YYYY-MM-DD HH:MI' in the workspace's time zone. */
  localNow: string;
  branding: Omit<Branding, 'logo'> & { logoUrl: string | null };
}

type WorkspaceRow = {
  display_name: string;
  time_zone: string;
  local_day: string;
  local_now: string;
  logo: string | null;
  primary_color: string;
  org_footer_name: string;
  org_address: string;
  gstin: string;
  fssai: string;
  contact_number: string;
};

async function workspaceFacts(em: EntityManager, organizationId: number): Promise<WorkspaceFacts> {
  const t = tenantSql(organizationId, 'c');
  const [w] = await executeSql<WorkspaceRow>(
    em,
    sql`select o.display_name, c.time_zone, c.logo, c.primary_color, c.org_footer_name, c.org_address, c.gstin, c.fssai, c.contact_number,
            to_char(now() at time zone c.time_zone, 'YYYY-MM-DD') as local_day,
            to_char(now() at time zone c.time_zone, 'YYYY-MM-DD HH24:MI') as local_now
       from workspace_config c join organization o on o.id = c.organization_id
      where ${t.owns()}`,
  );
  return {
    name: w.display_name,
    timeZone: w.time_zone,
    localDay: w.local_day,
    localNow: w.local_now,
    branding: {
      name: w.org_footer_name || w.display_name,
      address: w.org_address,
      contactNumber: w.contact_number,
      gstin: w.gstin,
      fssai: w.fssai,
      footerName: w.org_footer_name,
      primaryColor: w.primary_color,
      logoUrl: w.logo,
    },
  };
}

/**
 * A PDF's rows are read PDF_BATCH_SIZE at a time and printed ROWS_BETWEEN_TURNS between two turns
 * of the event loop (under 1 ms of work): a batch of 1,000 had held the loop 10–27 ms, which other
 * requests waited out (bench/, PDF pair). XLSX batches stay at BATCH_SIZE: the writer hands each
 * to the compressor and waits, and an export job records its progress once a batch.
 */
export const PDF_BATCH_SIZE = 250;
const ROWS_BETWEEN_TURNS = 50;

/** Right-aligned in print. */
const NUMERIC: readonly CellType[] = ['integer', 'money', 'quantity'];

const countText = (n: number) => `${n.toLocaleString('en-IN')} ${n === 1 ? 'row' : 'rows'}`;

/**
 * Writes the domains' export kinds as XLSX or CSV (streamed by cursor, any size) or PDF (branded, at most
 * PDF_ROW_LIMIT rows, laid out on a worker thread) for one workspace: the engine behind
 * ExportService (a request's downloads and jobs) and the job worker, which has no request.
 */
export class ExportWriter {
  constructor(
    private readonly pdf: PdfRenderer,
    private readonly logos: LogoFetcher,
    private readonly catalog: ExportCatalog,
  ) {}

  /**
   * Everything that can be refused before a byte is written: the filters (400 naming the filter),
   * the row count and the PDF cap (400 naming `format`).
   */
  async plan(em: EntityManager, organizationId: number, request: ExportRequest): Promise<ExportPlan> {
    const source = this.catalog.sourceOf(request.kind);
    const scope = { em, organizationId };
    const { filters, labels } = await checkFilters(scope, source, request.filters);
    const rows = await plannedRows(scope, source, filters);
    const total = rows.total;
    if (request.format === ExportFormat.PDF && total > PDF_ROW_LIMIT) {
      const [limit, rows] = [PDF_ROW_LIMIT, total].map((n) => n.toLocaleString('en-IN'));
      throw new ValidationError('format', `must be xlsx or csv for more than ${limit} rows (this export has ${rows}; a PDF holds at most ${limit}), or narrow the filters`);
    }
    const workspace = await workspaceFacts(em, organizationId);
    return {
      ...request,
      filters,
      organizationId,
      source,
      total,
      rows,
      fileName: exportFileName(request.kind, request.format, workspace.localDay),
      contentType: CONTENT_TYPES[request.format],
      filterLines: [...source.describe(filters, labels), ...rows.lines],
      workspace,
    };
  }

  /**
   * Writes the planned file into `output` (which it ends) and returns the rows written.
   * `onProgress` hears the rows read so far after each batch.
   */
  async write(em: EntityManager, plan: ExportPlan, output: Writable, onProgress?: (rows: number) => Promise<void>): Promise<number> {
    if (plan.format === ExportFormat.PDF) {
      const { bytes, rows } = await this.pdfOf(em, plan, onProgress);
      await new Promise<void>((resolve, reject) => output.end(bytes, (err?: Error | null) => (err ? reject(err) : resolve())));
      return rows;
    }
    if (plan.format === ExportFormat.CSV) return this.csvInto(em, plan, output, onProgress);
    return this.xlsxInto(em, plan, output, onProgress);
  }

  /** The PDF, whole (it is capped at PDF_ROW_LIMIT rows). */
  async pdfOf(em: EntityManager, plan: ExportPlan, onProgress?: (rows: number) => Promise<void>): Promise<{ bytes: Buffer; rows: number }> {
    const columns = plan.source.columns.filter((c) => c.printed !== false);
    // A rendering thread gets ready while the rows are read.
    this.pdf.prepare();
    const totals = new ColumnTotals(columns);
    const printed = new PrintedRows();
    const rows = await plan.rows.forEachBatch(em, async (batch) => {
      for (let at = 0; at < batch.length; at += ROWS_BETWEEN_TURNS) {
        if (at > 0) await setImmediate();
        for (const raw of batch.slice(at, at + ROWS_BETWEEN_TURNS)) {
          totals.add(raw);
          printed.add(columns.map((c) => printedValue(c.type, raw[c.key])));
        }
      }
      await onProgress?.(printed.count);
    }, PDF_BATCH_SIZE);
    const totalsRow = totals.any ? totals.row('Total') : null;
    const input: PdfInput = {
      title: plan.source.title,
      filterLines: plan.filterLines,
      summaryLine: `Generated ${plan.workspace.localNow} (${plan.workspace.timeZone}) · ${countText(rows)}`,
      orientation: plan.source.orientation,
      columns: columns.map((c) => ({ header: c.header, width: c.width, alignment: NUMERIC.includes(c.type) ? 'right' : 'left' })),
      rows: printed.pack(),
      totals: totalsRow && columns.map((c) => displayValue(c.type, totalsRow[c.key])),
      branding: { ...plan.workspace.branding, logo: await this.logos.dataUrl(plan.workspace.branding.logoUrl) },
    };
    return { bytes: await this.pdf.render(input), rows };
  }

  private async xlsxInto(em: EntityManager, plan: ExportPlan, output: Writable, onProgress?: (rows: number) => Promise<void>): Promise<number> {
    const { columns } = plan.source;
    const totals = new ColumnTotals(columns);
    const writer = new XlsxWriter(output, columns, {
      title: plan.source.title,
      workspace: plan.workspace.name,
      filterLines: plan.filterLines,
      generated: `${plan.workspace.localNow} (${plan.workspace.timeZone})`,
    });
    let done = 0;
    await plan.rows.forEachBatch(em, async (batch) => {
      // Row by row, so a row's typed cells are garbage before the next is made: nothing of a
      // batch but its raw rows and its XML lives long enough to be promoted out of V8's young generation.
      for (const raw of batch) {
        const row = this.cellsOf(plan, raw);
        totals.add(row);
        writer.addRow(row);
      }
      await writer.flush();
      done += batch.length;
      await onProgress?.(done);
    });
    await writer.finish(totals.any ? totals.row('Total') : null);
    return done;
  }

  /** The same cursor and batches as XLSX; the raw SQL values go to the CSV writer untyped. */
  private async csvInto(em: EntityManager, plan: ExportPlan, output: Writable, onProgress?: (rows: number) => Promise<void>): Promise<number> {
    const writer = new CsvWriter(output, plan.source.columns);
    await plan.rows.forEachBatch(em, async (batch) => {
      for (const raw of batch) writer.addRow(raw);
      await writer.flush();
      await onProgress?.(writer.rows);
    });
    await writer.finish();
    return writer.rows;
  }

  private cellsOf(plan: ExportPlan, raw: Record<string, unknown>): Record<string, CellValue> {
    const cells: Record<string, CellValue> = {};
    for (const c of plan.source.columns) cells[c.key] = cellValue(c.type, raw[c.key]);
    return cells;
  }
}
