import type { EntityClass } from '@mikro-orm/core';
import type { CronItem } from 'graphile-worker';
import type { Config } from '../config';
import type { RequestContext } from '../context/request-context';
import type { RowColumns } from '../db/entity-rows';
import type { Messenger } from '../messaging/messenger';
import type { Secrets } from '../secrets';
import type { BackgroundTasks } from '../concurrency/background-tasks';
import type { ExportSource } from './exports/export-source';
import type { HostResolver } from './webhooks/target-guard';

/**
 * Every domain service, by the name resolvers and routes reach it under (`services.orders`). Each
 * domain adds its own in its index.ts (`declare module '../domain-module' { interface Services
 * { orders: OrderService } }`), so this file lists none and imports no domain's code.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Services {}

/**
 * The per-request DataLoaders behind nested GraphQL fields, by name; each domain adds its own
 * (`interface Loaders { … }` beside its `Services`) and builds them in its module's `loaders`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Loaders {}

/** What a domain's loaders are built from, once per GraphQL request. */
export interface LoaderScope {
  ctx: RequestContext;
  services: Services;
  /** The columns the operation's fields need, once it is resolved (see graphql/selected-fields.ts). */
  columns: () => RowColumns | undefined;
  /** Every domain's loaders of the request (complete once all are built), to hand over rows read together. */
  loaders: Loaders;
}

/** Builds a domain's loaders for one request. */
export type LoaderFactory = (scope: LoaderScope) => Partial<Loaders>;

/** How API keys may use a route group (the first path segment after /api/v1). */
export type KeyAccess =
  /** Keys reach it with their action scopes, and a key may be confined to it by its name as a scope token. */
  | 'scoped'
  /** Keys are refused whatever their scopes (403): sign-in, administration and user-facing apps. */
  | 'refused';

/** What every domain declares, gathered from all of them (see catalogOf in ./index.ts). */
export interface DomainCatalog {
  /** Groups keys may be confined to, in the order of the domain list: the scope tokens. */
  readonly scopedGroups: readonly string[];
  /** Groups closed to keys. */
  readonly refusedGroups: readonly string[];
  /** Events a webhook endpoint may subscribe to. */
  readonly webhookEvents: readonly string[];
  /** The export kinds, in the order of the domain list. */
  readonly exportSources: readonly ExportSource[];
}

/** What a domain's services are built from: the process's settings and the shared machinery. */
export interface ServiceDeps {
  config: Config;
  secrets: Secrets;
  /** Outbound HTTP to third parties; tests substitute it. */
  fetch: typeof fetch;
  /** Resolves webhook and logo host names; tests substitute it. */
  resolveHost?: HostResolver;
  /** How long a looked-up API key is trusted; tests shorten it. */
  apiKeyCacheTtlMs?: number;
  /** Work that outlives its request (mail, SMS, key last-use stamps); shutdown waits for it. */
  background: BackgroundTasks;
  messenger: Messenger;
  catalog: DomainCatalog;
  /**
   * The services of the domains listed before this one (reading another one throws at start-up:
   * list the domain it needs earlier).
   */
  services: Services;
}

/**
 * A domain: one folder under src/domains that hands the app everything it adds, and is listed once
 * in src/domains/index.ts. Its REST routes are a plugin listed once in rest-shim/index.ts.
 */
export interface DomainModule {
  /** The folder's name. */
  readonly name: string;
  /** Its MikroORM entities (tenant-owned ones extend TenantEntity). */
  readonly entities?: readonly EntityClass<object>[];
  /** Builds its services, named as `Services` declares them. */
  readonly services?: (deps: ServiceDeps) => Partial<Services>;
  /**
   * Its TypeGraphQL resolver classes, or a function that defines them from what all the domains
   * declare (the export resolver's ExportKind enum lists every domain's export kinds); called once.
   */
  readonly resolvers?: readonly Function[] | ((catalog: DomainCatalog) => readonly Function[]);
  /** The route groups it serves, and how API keys may use each. */
  readonly routeGroups?: Readonly<Record<string, KeyAccess>>;
  /** The webhook events it emits. */
  readonly webhookEvents?: readonly string[];
  /** The export kinds of its records (files in XLSX and PDF; see exports/export-source.ts). */
  readonly exports?: readonly ExportSource[];
  /** Its GraphQL loaders (batched reads behind nested fields). */
  readonly loaders?: LoaderFactory;
  /** Its recurring tasks (graphile-worker crontab items; the tasks themselves live in jobs/tasks). */
  readonly cron?: readonly CronItem[];
}

/** Declares a domain; only for the type check. */
export function defineDomain<M extends DomainModule>(module: M): M {
  return module;
}
