import type { Config } from '../../config';
import type { Secrets } from '../../secrets';
import type { DeliveryDeps } from './delivery-engine';
import { KeepAliveAgents } from './keep-alive-agents';
import { systemResolver, type HostResolver } from './target-guard';
import { SecretBox } from './webhook-secret';

/** The delivery settings of the configuration, the secret box, the resolver (the system's unless given) and a fresh connection cache. */
export function deliveryDepsOf(config: Pick<Config, 'webhook'>, secrets: Secrets, resolve: HostResolver = systemResolver): DeliveryDeps {
  return {
    settings: config.webhook,
    secrets: new SecretBox(secrets.deriveKey('webhook-secret')),
    resolve,
    agents: new KeepAliveAgents(),
  };
}
