import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { ApiKey } from './api-key.entity';
import { CreateApiKeyInput, CreatedApiKeyPayload } from './api-key.types';
import { ASSUMED_LENGTH, COST, listCost } from '../../graphql/costs';

/** API key management: administrators signed in with a session only. */
@Authorized()
@Resolver()
export class ApiKeyResolver {
  @InGroup('developer')
  @Query(() => [ApiKey], { complexity: listCost(COST.record, ASSUMED_LENGTH.apiKeys), description: 'Every API key of the workspace, revoked ones included, newest first.' })
  apiKeys(@Ctx() { ctx, services }: GraphqlContext): Promise<Array<Row<ApiKey>>> {
    return services.apiKeys.list(ctx);
  }

  @InGroup('developer')
  @Mutation(() => CreatedApiKeyPayload, { complexity: COST.write, description: 'Issues a key; administrators are e-mailed. At most 50 active keys.' })
  createApiKey(@Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput, @Ctx() { ctx, services }: GraphqlContext): Promise<CreatedApiKeyPayload> {
    return services.apiKeys.create(ctx, input);
  }

  @InGroup('developer')
  @Mutation(() => ApiKey, { complexity: COST.write, description: 'Revokes a key at once (the record stays, status REVOKED); administrators are e-mailed.' })
  async revokeApiKey(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<ApiKey>> {
    return (await services.apiKeys.revoke(ctx, id)).apiKey;
  }
}
