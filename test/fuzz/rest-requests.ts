import fc from 'fast-check';
import { encodeURIComponentLoosely, hostileIdText, hostileNumber, hostileString } from './hostile-values';
import { bodyFor, ID_NAME, validShaped, type JsonSchema, type ValueSources } from './json-schema-values';

/** One operation of the OpenAPI document. */
export interface RestOperation {
  method: string;
  /** The templated path under the server's base URL, e.g. /orders/{id}/status. */
  path: string;
  /** The full URL template, e.g. /api/v1/orders/{id}/status. */
  url: string;
  pathParams: Array<{ name: string; schema: JsonSchema }>;
  queryParams: Array<{ name: string; schema: JsonSchema; required: boolean }>;
  body: JsonSchema | null;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiDocument {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the document (each path and method), in document order. */
export function restOperations(doc: OpenApiDocument): RestOperation[] {
  const base = doc.servers?.[0]?.url ?? '';
  const operations: RestOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        url: base + path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema })),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema, required: p.required ?? false })),
        body: op.requestBody?.content['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

/** A request as light-my-request takes it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Raw text (sent as is); undefined for no body. */
  payload?: string;
}

/** A query-string value: the schema's own kind of value, or anything at all. */
function queryValue(schema: JsonSchema, name: string, sources: ValueSources): fc.Arbitrary<string> {
  const valid = validShaped(schema, sources, name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const id = ID_NAME.test(name) ? [hostileIdText(sources.existingIds).map(decodeSafely)] : [];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const numeric = type === 'integer' || type === 'number' ? [{ weight: 2, arbitrary: hostileNumber.map(String) }] : [];
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 2, arbitrary: hostileString.filter((s) => s.length < 4096) }, ...numeric, ...id);
}

/** The id text as a value (query values are encoded again when the URL is built). */
function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

type Pair = [string, string];

/** The query string: some parameters, each once or repeated, plus now and then one the route does not know. */
function queryString(op: RestOperation, sources: ValueSources): fc.Arbitrary<string> {
  const pairs = op.queryParams.map((p) =>
    fc.option(
      fc.oneof(
        { weight: 5, arbitrary: queryValue(p.schema, p.name, sources).map((v): Pair[] => [[p.name, v]]) },
        { weight: 1, arbitrary: fc.array(queryValue(p.schema, p.name, sources), { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v): Pair => [p.name, v])) },
        { weight: 1, arbitrary: fc.constant<Pair[]>([[p.name, '']]) },
      ),
      { freq: p.required ? 8 : 2 },
    ),
  );
  const extra = fc.option(fc.tuple(fc.constantFrom('unknown', 'page[0]', 'limit', '__proto__', 'search'), hostileString.filter((s) => s.length < 512)).map((pair): Pair[] => [pair]), { freq: 4 });
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const all: Pair[] = [...chosen.flatMap((c) => c ?? []), ...(more ?? [])];
    return all.length === 0 ? '' : `?${all.map(([k, v]) => `${encodeURIComponentLoosely(k)}=${encodeURIComponentLoosely(v)}`).join('&')}`;
  });
}

/** The body as sent: JSON of a generated value, no body, an empty one, or text that is not JSON. */
function payload(op: RestOperation, sources: ValueSources): fc.Arbitrary<{ payload?: string; contentType?: string }> {
  const json = (arb: fc.Arbitrary<unknown>) => arb.map((value) => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' }));
  const odd = fc.constantFrom(
    { payload: '', contentType: 'application/json' },
    { payload: '{"a":', contentType: 'application/json' },
    { payload: '\u0000', contentType: 'application/json' },
    { payload: '{"__proto__":{"polluted":1}}', contentType: 'application/json' },
    { payload: 'x=1', contentType: 'application/x-www-form-urlencoded' },
    { payload: 'plain', contentType: 'text/plain' },
    { payload: '{}', contentType: 'application/json; charset=utf-16' },
  );
  // JSON has no Infinity, but JSON.parse reads a number too large for a double (1e400) as one.
  const overflowing = bodyFor(op.body ?? {}, sources).map((value) => ({
    payload: (JSON.stringify(value) ?? 'null').replace(/(:\s*|\[)-?\d+(\.\d+)?([eE][+-]?\d+)?/, (_, before: string) => `${before}1e400`),
    contentType: 'application/json',
  }));
  if (!op.body) return fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: odd }, { weight: 1, arbitrary: json(fc.jsonValue({ maxDepth: 2 })) });
  return fc.oneof({ weight: 10, arbitrary: json(bodyFor(op.body, sources)) }, { weight: 1, arbitrary: overflowing }, { weight: 1, arbitrary: odd }, { weight: 1, arbitrary: fc.constant({}) });
}

/** Requests for one operation: path parameters, query and body all generated from the document. */
export function restRequests(op: RestOperation, sources: ValueSources): fc.Arbitrary<FuzzRequest> {
  const pathValues = fc.tuple(...op.pathParams.map(() => hostileIdText(sources.existingIds)));
  return fc.tuple(pathValues, queryString(op, sources), payload(op, sources)).map(([values, query, body]): FuzzRequest => {
    let url = op.url;
    op.pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, values[i]);
    });
    return {
      method: op.method,
      url: url + query,
      headers: body.contentType ? { 'content-type': body.contentType } : ({} as Record<string, string>),
      ...(body.payload !== undefined ? { payload: body.payload } : {}),
    };
  });
}
