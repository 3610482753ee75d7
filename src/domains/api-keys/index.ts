import { defineDomain } from '../domain-module';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKey } from './api-key.entity';
import { ApiKeyResolver } from './api-key.resolver';
import { KeyScopePolicy } from './api-key-scopes';
import { ApiKeyService } from './api-key.service';

declare module '../domain-module' {
  interface Services {
    /** Which route groups keys reach, and the scope tokens that confine them. */
    keyScopes: KeyScopePolicy;
    apiKeyAuthenticator: ApiKeyAuthenticator;
    apiKeys: ApiKeyService;
  }
}

/** API keys for integrators: issued, listed and revoked by admins, checked on every keyed request. */
export const apiKeysDomain = defineDomain({
  name: 'api-keys',
  entities: [ApiKey],
  services: ({ background, messenger, apiKeyCacheTtlMs, catalog }) => {
    const keyScopes = new KeyScopePolicy(catalog.scopedGroups, catalog.refusedGroups);
    const apiKeyAuthenticator = new ApiKeyAuthenticator(background, keyScopes, apiKeyCacheTtlMs);
    return { keyScopes, apiKeyAuthenticator, apiKeys: new ApiKeyService(apiKeyAuthenticator, keyScopes, messenger, background) };
  },
  resolvers: [ApiKeyResolver],
  routeGroups: { developer: 'refused' },
});
