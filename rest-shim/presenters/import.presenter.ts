import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { ImportJob } from '../../src/domains/imports/import-job.entity';
import { ImportStatus } from '../../src/domains/imports/import-job.entity';
import type { ImportRead } from '../../src/domains/imports/import.service';
import { Nullable, Timestamp } from '../schemas';

const STATUS_TEXT =
  'pending (queued for the job worker), running, succeeded (written; a dry run: every row valid), failed (some rows failed: nothing was written), partial (partial=true: the valid rows were written), error (the file could not be read or the run broke: nothing was written)';

/** An import: its file, status, progress and counts. */
export const ImportBody = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  status: Type.String({ enum: Object.values(ImportStatus), description: STATUS_TEXT }),
  dry_run: Type.Boolean(),
  partial: Type.Boolean(),
  file_name: Type.String(),
  file_format: Type.String({ enum: ['csv', 'xlsx'] }),
  file_sha256: Type.String(),
  file_bytes: Type.Integer(),
  total_rows: Type.Integer({ description: 'Data rows in the file' }),
  processed_rows: Type.Integer({ description: 'Rows read and checked so far (progress)' }),
  valid_rows: Type.Integer(),
  failed_rows: Type.Integer({ description: 'Rows with at least one error' }),
  inserted: Type.Integer({ description: 'Records created (a dry run: that would be)' }),
  updated: Type.Integer(),
  unchanged: Type.Integer({ description: 'Rows equal to the stored record (a re-upload)' }),
  error: Nullable(Type.String()),
  failed_rows_url: Nullable(Type.String({ description: 'Path of the failed rows CSV (under /api/v1), when rows failed' })),
  created_by_user_id: Nullable(Type.Integer()),
  created_by_api_key_id: Nullable(Type.Integer()),
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** An import with its first failed rows. */
export const ImportResultBody = Type.Object({
  ...ImportBody.properties,
  errors: Type.Array(
    Type.Object({
      row: Type.Integer({ description: 'The spreadsheet row: the header is row 1' }),
      field: Type.String({ description: "The column, or '' for the row as a whole" }),
      message: Type.String(),
    }),
    { description: 'The first 100 failures; the failed rows CSV has every failed row' },
  ),
});

/** An import's row as the API shows it. */
export function presentImport(job: Row<ImportJob>) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    dry_run: job.dryRun,
    partial: job.partial,
    file_name: job.fileName,
    file_format: job.fileFormat,
    file_sha256: job.fileSha256,
    file_bytes: job.fileBytes,
    total_rows: job.totalRows,
    processed_rows: job.processedRows,
    valid_rows: job.validRows,
    failed_rows: job.failedRows,
    inserted: job.inserted,
    updated: job.updated,
    unchanged: job.unchanged,
    error: job.error,
    failed_rows_url: job.failedRows > 0 ? `/imports/${job.id}/failed-rows.csv` : null,
    created_by_user_id: job.createdByUserId,
    created_by_api_key_id: job.createdByApiKeyId,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}

/** An import with its first failed rows. */
export function presentImportResult(read: ImportRead) {
  return { ...presentImport(read.job), errors: read.failedRows.map((f) => ({ row: f.rowNumber, field: f.field, message: f.message })) };
}
