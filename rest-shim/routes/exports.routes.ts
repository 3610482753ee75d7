import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { attachment, fileResponse } from '../export-route';
import { IdParams } from '../schemas';

const FileQuery = Type.Object({
  expires: Type.Integer({ minimum: 0, description: 'Unix time the link stops working (from the download URL)' }),
  signature: Type.String({ minLength: 1, maxLength: 100, description: 'From the download URL' }),
});

/**
 * The files of export jobs. Each domain serves its own kinds' downloads (`exportRoute`:
 * /exports/orders and /exports/sales in orders.routes.ts, /exports/users in users.routes.ts).
 */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Exports'];
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
