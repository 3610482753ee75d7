import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES, ExportFormat, ExportKind, type ExportFilters } from '../../src/domains/exports/export-kinds';
import { USER_TYPE_NAMES } from '../../src/domains/users/user.entity';
import { DateString, ErrorBody, ServerErrorBody, IdParams, OrderStatusFilter, StatusFilter } from '../schemas';

const format = Type.Optional(Type.String({ enum: Object.values(ExportFormat), default: ExportFormat.XLSX, description: 'xlsx (default) or pdf' }));

const OrdersExportQuery = Type.Object({
  format,
  status: OrderStatusFilter,
  date_from: Type.Optional(DateString),
  date_to: Type.Optional(DateString),
  production_unit_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

const UsersExportQuery = Type.Object({
  format,
  type: Type.Optional(Type.String({ enum: Object.keys(USER_TYPE_NAMES), description: 'admin, employee, distributor or retailer' })),
  status: StatusFilter,
});

const SalesExportQuery = Type.Object({ format, date_from: Type.Optional(DateString), date_to: Type.Optional(DateString) });

const FileQuery = Type.Object({
  expires: Type.Integer({ minimum: 0, description: 'Unix time the link stops working (from the download URL)' }),
  signature: Type.String({ minLength: 1, maxLength: 100, description: 'From the download URL' }),
});

const binary = { type: 'string', format: 'binary' };
/** The documented answer: a file in either format. */
const fileResponse = {
  200: {
    description: 'The file, as an attachment',
    content: { [CONTENT_TYPES.xlsx]: { schema: binary }, [CONTENT_TYPES.pdf]: { schema: binary } },
  },
  '4xx': ErrorBody,
  '5xx': ServerErrorBody,
};

const attachment = (fileName: string) => `attachment; filename="${fileName}"`;

/**
 * Sends the file the export service makes of one export: every 400 comes before a byte is sent;
 * an XLSX streams as it is written.
 */
async function sendExport(request: FastifyRequest, reply: FastifyReply, kind: ExportKind, format: string | undefined, filters: ExportFilters) {
  const file = await request.server.services.exports.file(request.ctx, { kind, format: (format ?? ExportFormat.XLSX) as ExportFormat, filters });
  reply.header('content-type', file.contentType).header('content-disposition', attachment(file.fileName)).header('cache-control', 'private, no-store');
  if (file.body instanceof Readable) {
    file.body.once('error', (err) => {
      request.log.error({ err }, 'export stopped while streaming');
      // Failing before the first byte, the answer becomes an error envelope: not an attachment.
      if (!reply.raw.headersSent) reply.removeHeader('content-disposition');
    });
  }
  return reply.send(file.body);
}

/** GET /exports/orders, /exports/users, /exports/sales, and export job files (no HEAD: it would write a whole export for nothing). */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Exports'];
  app.get(
    '/exports/orders',
    { exposeHeadRoute: false, schema: { tags, summary: 'Orders as XLSX or PDF (administrators and API keys)', querystring: OrdersExportQuery, response: fileResponse } },
    (request, reply) => {
      const q = request.query;
      return sendExport(request, reply, ExportKind.ORDERS, q.format, {
        orderStatus: q.status,
        dateFrom: q.date_from,
        dateTo: q.date_to,
        productionUnitId: q.production_unit_id,
      });
    },
  );

  app.get(
    '/exports/users',
    { exposeHeadRoute: false, schema: { tags, summary: 'Users as XLSX or PDF (administrators and API keys)', querystring: UsersExportQuery, response: fileResponse } },
    (request, reply) => {
      const q = request.query;
      return sendExport(request, reply, ExportKind.USERS, q.format, {
        userType: q.type === undefined ? undefined : USER_TYPE_NAMES[q.type],
        userStatus: q.status,
      });
    },
  );

  app.get(
    '/exports/sales',
    { exposeHeadRoute: false, schema: { tags, summary: 'Sales, one row per order line, as XLSX or PDF (administrators and API keys)', querystring: SalesExportQuery, response: fileResponse } },
    (request, reply) => {
      const q = request.query;
      return sendExport(request, reply, ExportKind.SALES, q.format, { dateFrom: q.date_from, dateTo: q.date_to });
    },
  );

  app.get(
    '/exports/files/:id',
    {
      // Not the exports budget: fetching a finished file exports nothing.
      config: { auth: 'public', budget: null, signedUrl: true },
      // HEAD would read every chunk for nothing.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'The file of an export job, by its pre-signed download URL (no credential or browser User-Agent needed; a credential sent must be of the same workspace)',
        params: IdParams,
        querystring: FileQuery,
        response: fileResponse,
      },
    },
    async (request, reply) => {
      const file = await app.services.exportJobs.download(request.ctx, { id: request.params.id, expires: request.query.expires, signature: request.query.signature });
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachment(file.fileName))
        .header('content-length', file.byteSize)
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
};
