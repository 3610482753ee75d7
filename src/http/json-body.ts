import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), except that an empty body is
 * no body on a route that takes none: clients send `content-type: application/json` on every
 * request, a DELETE or POST /auth/logout included, and an unknown path must still answer 404.
 * A route with a body schema keeps refusing an empty body as invalid JSON.
 */
export function acceptEmptyBodiesWhereNoneIsTaken(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0 && request.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done); // parseAs 'string'
  });
}
