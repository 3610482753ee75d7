import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TProperties } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES, ExportFormat } from '../src/domains/exports/export-formats';
import type { ExportFilters, ExportSource } from '../src/domains/exports/export-source';
import { ErrorBody, ServerErrorBody } from './schemas';

type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0];

const format = Type.Optional(Type.String({ enum: Object.values(ExportFormat), default: ExportFormat.XLSX, description: 'xlsx (default), pdf, or csv (RFC 4180, UTF-8 with a BOM, no row cap)' }));

const binary = { type: 'string', format: 'binary' };
/** The documented answer of an export: a file in any of the formats. */
export const fileResponse = {
  200: {
    description: 'The file, as an attachment',
    content: { [CONTENT_TYPES.xlsx]: { schema: binary }, [CONTENT_TYPES.pdf]: { schema: binary }, [CONTENT_TYPES.csv]: { schema: { type: 'string' } } },
  },
  '4xx': ErrorBody,
  '5xx': ServerErrorBody,
};

/** The Content-Disposition of a file. */
export const attachment = (fileName: string) => `attachment; filename="${fileName}"`;

/**
 * Sends the file the export service makes of one export: every 400 comes before a byte is sent;
 * an XLSX or CSV streams as it is written.
 */
async function sendExport(request: FastifyRequest, reply: FastifyReply, kind: string, format: string | undefined, filters: ExportFilters) {
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

/**
 * GET /exports/{kind} for a domain's export kind: its REST query (with `format`, xlsx, pdf or csv)
 * mapped to the kind's filters. No HEAD: it would write a whole export for nothing.
 */
export function exportRoute<P extends TProperties>(
  app: RouteApp,
  route: { source: ExportSource; summary: string; query: P; filters: (query: Static<ReturnType<typeof Type.Object<P>>>) => ExportFilters },
): void {
  const querystring = Type.Object({ format, ...route.query });
  app.get(
    `/exports/${route.source.kind}`,
    { exposeHeadRoute: false, schema: { tags: ['Exports'], summary: route.summary, querystring, response: fileResponse } },
    (request, reply) => {
      const query = request.query as { format?: string };
      return sendExport(request, reply, route.source.kind, query.format, route.filters(query as never));
    },
  );
}
