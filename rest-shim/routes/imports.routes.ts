import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../src/errors/app-error';
import { ImportStatus } from '../../src/domains/imports/import-job.entity';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../src/domains/imports/import-file';
import { IMPORT_KINDS } from '../../src/domains/imports/import-kinds';
import { IMPORT_SORT, INLINE_ROW_LIMIT } from '../../src/domains/imports/import.service';
import { created, ok, paginated } from '../envelope';
import { attachment } from '../export-route';
import { ImportBody, ImportResultBody, presentImport, presentImportResult } from '../presenters/import.presenter';
import { ErrorBody, IdParams, listQuery, listResponse, okResponse, pageRequestOf, ServerErrorBody } from '../schemas';

const UploadQuery = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Check every row and count what would be inserted, updated or unchanged, without writing' })),
  partial: Type.Optional(Type.Boolean({ default: false, description: 'Write the valid rows even when some fail (default: all or nothing)' })),
  async: Type.Optional(Type.Boolean({ default: false, description: `Run as a job whatever the size (files over ${INLINE_ROW_LIMIT} rows always do): 202, then poll GET /imports/{id}` })),
});

const ListQuery = listQuery(
  {
    kind: Type.Optional(Type.String({ enum: IMPORT_KINDS.map((k) => k.kind) })),
    status: Type.Optional(Type.String({ enum: Object.values(ImportStatus) })),
  },
  { sort: IMPORT_SORT, search: 'the file name' },
);

const KindParams = Type.Object({ kind: Type.String({ maxLength: 60, description: IMPORT_KINDS.map((k) => k.kind).join(', ') }) });

const binary = { type: 'string', format: 'binary' };
const errors = { '4xx': ErrorBody, '5xx': ServerErrorBody };
const wrapped = (status: number) => Type.Object({ response_code: Type.Integer({ enum: [status] }), message: Type.String(), data: ImportResultBody });

/** The one file of a multipart upload, in the field `file`, whole (MAX_IMPORT_BYTES at most). */
async function uploadedFile(request: FastifyRequest): Promise<{ fileName: string; contentType: string; data: Buffer }> {
  if (!request.isMultipart()) throw new ValidationError('file', 'is required: send multipart/form-data with the CSV or XLSX file in the field "file"');
  let part;
  try {
    part = await request.file();
  } catch (err) {
    throw new ValidationError('file', `could not be read from the upload: ${(err as Error).message}`);
  }
  if (!part) throw new ValidationError('file', 'is required: send the CSV or XLSX file in the field "file"');
  if (part.fieldname !== 'file') throw new ValidationError('file', `is required: the file came in the field "${part.fieldname.slice(0, 40)}", expected "file"`);
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ValidationError('file', `must be at most ${MAX_IMPORT_BYTES} bytes (10 MB)`);
    throw new ValidationError('file', `could not be read from the upload: ${(err as Error).message}`);
  }
  if (part.file.truncated) throw new ValidationError('file', `must be at most ${MAX_IMPORT_BYTES} bytes (10 MB)`);
  return { fileName: part.filename || 'upload', contentType: part.mimetype, data };
}

/** Imports: an upload per kind, templates, the imports list, one import and its failed rows CSV (see the README's API notes). */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Imports'];
  // Multipart only here: one file field, MAX_IMPORT_BYTES.
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 } });

  for (const kind of IMPORT_KINDS) {
    app.post(
      `/imports/${kind.kind}`,
      {
        schema: {
          tags,
          summary: `Import ${kind.title.toLowerCase()} from a CSV or XLSX file (admins and API keys); key ${kind.keyDescription}`,
          description:
            `multipart/form-data with the file in the field \`file\` (.csv or .xlsx, at most 10 MB and ${MAX_IMPORT_ROWS} data rows). ` +
            `Columns: ${kind.columns.map((c) => `${c.header}${c.required ? '*' : ''}`).join(', ')} (template: GET /imports/templates/${kind.kind}). ` +
            `Every row is checked first; then all valid rows are written in one transaction, or nothing when a row fails (unless partial=true). ` +
            `201 with the result (status succeeded, failed or partial) for files of up to ${INLINE_ROW_LIMIT} rows; 202 with a pending import otherwise (or async=true).`,
          consumes: ['multipart/form-data'],
          querystring: UploadQuery,
          response: { 201: wrapped(201), 202: wrapped(202), ...errors },
        },
      },
      async (request, reply) => {
        const file = await uploadedFile(request);
        const q = request.query;
        const read = await app.services.imports.start(request.ctx, { kind: kind.kind, ...file, dryRun: q.dry_run, partial: q.partial, async: q.async });
        const queued = read.job.status === ImportStatus.PENDING;
        const message = queued
          ? `Import queued: ${read.job.totalRows} rows`
          : `${read.job.dryRun ? 'Dry run' : 'Import'} ${read.job.status}: ${read.job.inserted} inserted, ${read.job.updated} updated, ${read.job.unchanged} unchanged, ${read.job.failedRows} failed`;
        const status = queued ? 202 : 201;
        return reply.code(status).send({ ...created(message, presentImportResult(read)), response_code: status });
      },
    );
  }

  app.get(
    '/imports/templates/:kind',
    {
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'The XLSX template of an import kind: its header row and one example row, and an About sheet describing each column',
        params: KindParams,
        response: { 200: { description: 'The XLSX file', content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: binary } } }, ...errors },
      },
    },
    async (request, reply) => {
      const file = await app.services.imports.template(request.ctx, request.params.kind);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(file.fileName))
        .send(file.body);
    },
  );

  app.get(
    '/imports',
    { schema: { tags, summary: 'Imports, newest first (admins and API keys)', querystring: ListQuery, response: listResponse(ImportBody) } },
    async (request) => {
      const q = request.query;
      return paginated(await app.services.imports.list(request.ctx, { kind: q.kind, status: q.status, search: q.search }, pageRequestOf(q)), presentImport);
    },
  );

  app.get(
    '/imports/:id',
    { schema: { tags, summary: 'One import: status, progress (processed_rows of total_rows), counts and the first 100 failed rows', params: IdParams, response: okResponse(ImportResultBody) } },
    async (request) => ok(presentImportResult(await app.services.imports.get(request.ctx, request.params.id))),
  );

  app.get(
    '/imports/:id/failed-rows.csv',
    {
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: "An import's failed rows as CSV: the file's own columns as uploaded plus `error` (\"column: message; …\"), to fix and upload again",
        params: IdParams,
        response: { 200: { description: 'The CSV (UTF-8 with a BOM)', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errors },
      },
    },
    async (request, reply) => {
      const file = await app.services.imports.failedRowsCsv(request.ctx, request.params.id);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', attachment(file.fileName)).send(file.body);
    },
  );
};
