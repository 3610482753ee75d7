import { createRequire } from 'node:module';

/** One SQL statement as the service sent it. */
export interface Statement {
  text: string;
  values?: unknown[];
}

type QueryFn = (this: unknown, config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Records every statement sent through any copy of `pg` loaded in this process (MikroORM's knex may
 * load its own), by wrapping Client#query. Used to replay exactly what the service sends for one
 * request, without HTTP or the ORM, as the raw baseline.
 */
export class SqlCapture {
  private recording: Statement[] | null = null;

  constructor() {
    const require = createRequire(__filename);
    const clients = new Set<{ prototype: { query: QueryFn } }>();
    for (const id of Object.keys(require.cache)) {
      if (/[\\/]node_modules[\\/]pg[\\/]lib[\\/]client\.js$/.test(id)) clients.add(require.cache[id]!.exports);
    }
    if (clients.size === 0) throw new Error('pg is not loaded yet: build the app before capturing');
    for (const Client of clients) {
      const original = Client.prototype.query;
      const capture = this;
      Client.prototype.query = function (this: unknown, config: unknown, values?: unknown, callback?: unknown) {
        capture.recording?.push(statementOf(config, values));
        return original.call(this, config, values, callback);
      };
    }
  }

  /** The statements `run` sent. */
  async record(run: () => Promise<unknown>): Promise<Statement[]> {
    const statements: Statement[] = [];
    this.recording = statements;
    try {
      await run();
    } finally {
      this.recording = null;
    }
    return statements;
  }
}

function statementOf(config: unknown, values: unknown): Statement {
  if (typeof config === 'string') return { text: config, values: Array.isArray(values) ? values : undefined };
  const c = config as { text: string; values?: unknown[] };
  return { text: c.text, values: c.values ?? (Array.isArray(values) ? values : undefined) };
}
