import 'reflect-metadata';
import { getMetadataStorage } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { domainResolvers } from '../../src/domains';
import { graphqlSchema } from '../../src/graphql/schema';

describe("the gateway's schema", () => {
  it('guards every query and mutation but the sign-in ones with @Authorized', async () => {
    const schema = await graphqlSchema();
    const storage = getMetadataStorage();
    const ours = (root: { target: Function }) => domainResolvers().includes(root.target);
    const unguarded = [...storage.queries, ...storage.mutations].filter((root) => ours(root) && root.roles === undefined).map((root) => root.schemaName);
    expect(unguarded.every((name) => schema.getQueryType()!.getFields()[name] ?? schema.getMutationType()!.getFields()[name])).toBe(true);
    expect(unguarded.sort()).toEqual([
      'authChallenge',
      'exchangeDesktopCode',
      'login',
      'loginWithPasskey',
      'passkeyLoginOptions',
      'portalLogin',
      'requestMagicLink',
      'requestOtp',
      'setPasswordFromLink',
      'signup',
      'verifyMagicLink',
      'verifyOtp',
    ]);
  });
});
