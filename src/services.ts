import { DOMAINS, catalogOf } from './domains';
import type { DomainModule, ServiceDeps, Services } from './domains/domain-module';
import { createMessenger } from './messaging/messenger';
import { BackgroundTasks, type FailureLog } from './concurrency/background-tasks';

export type { Services } from './domains/domain-module';

/** The services and the shared machinery they were built with. */
export type AppServices = Services & {
  /** Work in flight past its request (deliveries, mail); shutdown waits for it. */
  background: BackgroundTasks;
};

/**
 * One instance of each domain service, shared by the REST shim and the GraphQL resolvers: every
 * domain's `services`, in the order of the domain list.
 */
export function createServices(
  deps: Pick<ServiceDeps, 'config' | 'secrets' | 'resolveHost' | 'apiKeyCacheTtlMs'> & { fetch?: typeof fetch; log: FailureLog },
  domains: readonly DomainModule[] = DOMAINS,
): AppServices {
  const fetchImpl = deps.fetch ?? fetch;
  const background = new BackgroundTasks(deps.log);
  const built: Partial<Services> = {};
  const shared: Omit<ServiceDeps, 'services'> = {
    config: deps.config,
    secrets: deps.secrets,
    fetch: fetchImpl,
    resolveHost: deps.resolveHost,
    apiKeyCacheTtlMs: deps.apiKeyCacheTtlMs,
    background,
    messenger: createMessenger(deps.config, fetchImpl),
    catalog: catalogOf(domains),
  };
  for (const domain of domains) {
    Object.assign(built, domain.services?.({ ...shared, services: builtBefore(built, domain.name) }));
  }
  return { ...(built as Services), background };
}

/** The services built so far; reading another one is a mistake in the domain list's order. */
function builtBefore(built: Partial<Services>, domain: string): Services {
  return new Proxy(built as Services, {
    get(target, name) {
      if (typeof name === 'string' && !(name in target)) {
        throw new Error(`The ${domain} domain uses services.${name}, which no domain listed before it builds`);
      }
      return Reflect.get(target, name);
    },
  });
}
