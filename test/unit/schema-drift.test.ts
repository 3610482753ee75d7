import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSchemas, SCHEMA_FILES } from '../../scripts/schemas';

describe('committed interface descriptions', () => {
  it('schema/schema.graphql and schema/openapi.json match what the code produces (run `npm run schema:emit`)', async () => {
    const rendered = await renderSchemas();
    expect(readFileSync(SCHEMA_FILES.graphql, 'utf8')).toBe(rendered.graphql);
    expect(readFileSync(SCHEMA_FILES.openapi, 'utf8')).toBe(rendered.openapi);
  });

  it('the OpenAPI document is 3.1 and covers every documented REST path', async () => {
    const doc = JSON.parse((await renderSchemas()).openapi);
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/signup/register',
      '/auth/me',
      '/users',
      '/users/{id}',
      '/products',
      '/orders',
      '/orders/{id}',
      '/orders/{id}/status',
      '/workspace/config',
      '/masters/product-classes',
      '/masters/routes/{id}',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
