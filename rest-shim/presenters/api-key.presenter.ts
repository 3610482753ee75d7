import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { CreatedApiKey } from '../../src/domains/api-keys/api-key.service';
import type { ApiKey } from '../../src/domains/api-keys/api-key.entity';
import { Nullable, Timestamp } from '../schemas';

/** An API key in lists (the secret is never shown again). */
export const ApiKeyBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  key_prefix: Type.String({ description: 'df_ and the first 8 hex characters of the key' }),
  scopes: Type.String({ description: 'Comma-separated, canonical spelling (e.g. "read,write,orders")' }),
  status: Type.Integer({ description: '1 active, 0 revoked' }),
  last_used_at: Nullable(Timestamp),
  expires_at: Nullable(Timestamp),
  created_at: Timestamp,
});

/** A key just created: the only answer that carries the key itself. */
export const CreatedApiKeyBody = Type.Object({
  id: Type.Integer(),
  key: Type.String({ description: 'df_ followed by 48 hex characters; shown only this once' }),
  name: Type.String(),
  key_prefix: Type.String(),
  scopes: Type.String(),
  expires_at: Nullable(Timestamp),
});

/** A key in its REST shape (never the key itself). */
export function presentApiKey(k: Row<ApiKey>) {
  return {
    id: k.id,
    name: k.name,
    key_prefix: k.keyPrefix,
    scopes: k.scopes,
    status: k.status,
    last_used_at: k.lastUsedAt,
    expires_at: k.expiresAt,
    created_at: k.createdAt,
  };
}

/** A key just created, with the key itself. */
export function presentCreatedApiKey({ apiKey, key }: CreatedApiKey) {
  return {
    id: apiKey.id,
    key,
    name: apiKey.name,
    key_prefix: apiKey.keyPrefix,
    scopes: apiKey.scopes,
    expires_at: apiKey.expiresAt,
  };
}
