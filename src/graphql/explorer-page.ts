import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Where the explorer's assets are served from: this process, same origin (no CDN). */
export const EXPLORER_ASSETS = '/graphql/explorer';

interface Asset {
  contentType: string;
  body: Buffer;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** A file of an installed npm package. */
const packageFile = (pkg: string, file: string) => readFileSync(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file));

/**
 * Starts GraphiQL on the page. A script file, not inline, so the page's CSP can allow scripts from
 * this origin only. No credential is stored or prefilled: the caller adds theirs in the Headers tab,
 * and GraphiQL keeps headers in memory only (`shouldPersistHeaders` stays false).
 */
const START_SCRIPT = `'use strict';
(function () {
  var fetcher = GraphiQL.createFetcher({ url: '/graphql' });
  var defaultQuery = [
    '# Operations need your credential,',
    '# added under Headers below:',
    '# {"Authorization": "Bearer <token>"}',
    '# or {"X-API-Key": "<API key>"}',
    '# (kept in this tab only, never saved).',
    '',
    'query Me {',
    '  me {',
    '    id',
    '  }',
    '}',
    '',
  ].join('\\n');
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: defaultQuery,
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
      // The docs open beside the editor, as /docs opens on the REST reference.
      visiblePlugin: GraphiQL.React.DOC_EXPLORER_PLUGIN,
    }),
  );
})();
`;

/** Same-origin scripts and styles only; GraphiQL sets inline styles and embeds its fonts as data: URLs. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>GraphQL explorer · Sales and Distribution Service</title>
    <link rel="stylesheet" href="${EXPLORER_ASSETS}/graphiql.min.css">
    <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
  </head>
  <body>
    <div id="graphiql">Loading the GraphQL explorer…</div>
    <script src="${EXPLORER_ASSETS}/react.production.min.js"></script>
    <script src="${EXPLORER_ASSETS}/react-dom.production.min.js"></script>
    <script src="${EXPLORER_ASSETS}/graphiql.min.js"></script>
    <script src="${EXPLORER_ASSETS}/start.js"></script>
  </body>
</html>
`;

/** The assets, read once at start from the installed packages (graphiql 3's UMD build and React 18's). */
function loadAssets(): Map<string, Asset> {
  return new Map<string, Asset>([
    ['react.production.min.js', { contentType: JS, body: packageFile('react', 'umd/react.production.min.js') }],
    ['react-dom.production.min.js', { contentType: JS, body: packageFile('react-dom', 'umd/react-dom.production.min.js') }],
    ['graphiql.min.js', { contentType: JS, body: packageFile('graphiql', 'graphiql.min.js') }],
    ['graphiql.min.css', { contentType: CSS, body: packageFile('graphiql', 'graphiql.min.css') }],
    ['start.js', { contentType: JS, body: Buffer.from(START_SCRIPT, 'utf8') }],
  ]);
}

/**
 * A browser's page load of /graphql: a GET that prefers HTML (Accept: text/html) and carries no
 * operation. Every other GET (a query in the URL, or an API client's Accept) goes to Apollo.
 */
export function wantsExplorer(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const query = request.query as Record<string, unknown> | undefined;
  if (query && (query.query !== undefined || query.extensions !== undefined)) return false;
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(request.headers.accept ?? '');
}

/** The GraphiQL page, answered by the /graphql route for a browser's page load. */
export function explorerPage(): { contentType: string; headers: Record<string, string>; body: string } {
  return {
    contentType: 'text/html; charset=utf-8',
    headers: { 'content-security-policy': CSP, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
    body: PAGE,
  };
}

/**
 * Serves GraphiQL's assets under EXPLORER_ASSETS from the npm packages, so that the explorer works
 * offline and behind a strict CSP, as /docs does for the REST reference. Public, like the page:
 * they hold no data, and every operation the page sends needs the caller's credential.
 */
export function registerExplorerAssets(app: FastifyInstance): void {
  const assets = loadAssets();
  app.get<{ Params: { file: string } }>(
    `${EXPLORER_ASSETS}/:file`,
    { config: { auth: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return reply.type(asset.contentType).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(asset.body);
    },
  );
}
