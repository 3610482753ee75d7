import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { CreateWebhookInput, TestWebhookPayload, UpdateWebhookInput, WebhookDeliveryArgs, WebhookWithSecretPayload } from './webhook.types';
import { ASSUMED_LENGTH, COST, listCost, pageCost } from '../../graphql/costs';
import { DELIVERY_LIMIT } from './webhook.service';

/** Webhook management over the same service as /developer/webhooks: administrators signed in with a session only. */
@Authorized()
@Resolver()
export class WebhookResolver {
  @InGroup('developer')
  @Query(() => [WebhookEndpoint], { complexity: listCost(COST.record, ASSUMED_LENGTH.webhooks), description: 'Endpoints of the workspace, newest first.' })
  webhooks(@Ctx() { ctx, services }: GraphqlContext): Promise<Array<Row<WebhookEndpoint>>> {
    return services.webhooks.list(ctx);
  }

  @InGroup('developer')
  @Query(() => [WebhookDelivery], { complexity: pageCost(DELIVERY_LIMIT.default), description: 'The delivery log, newest first.' })
  webhookDeliveries(@Args(() => WebhookDeliveryArgs) args: WebhookDeliveryArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Array<Row<WebhookDelivery>>> {
    return services.webhooks.deliveries(ctx, args);
  }

  @InGroup('developer')
  @Mutation(() => WebhookWithSecretPayload, { complexity: COST.write })
  async createWebhook(@Arg('input', () => CreateWebhookInput) input: CreateWebhookInput, @Ctx() { ctx, services }: GraphqlContext): Promise<WebhookWithSecretPayload> {
    const { endpoint, secret } = await services.webhooks.create(ctx, input);
    return { webhook: endpoint, secret };
  }

  @InGroup('developer')
  @Mutation(() => WebhookEndpoint, { complexity: COST.write, description: 'Omitted fields stay; status 0 pauses and cancels queued deliveries.' })
  updateWebhook(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateWebhookInput) input: UpdateWebhookInput,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<WebhookEndpoint>> {
    return services.webhooks.update(ctx, id, input);
  }

  @InGroup('developer')
  @Mutation(() => Boolean, { complexity: COST.write, description: 'Deletes the endpoint: queued deliveries are cancelled, the secret discarded.' })
  async deleteWebhook(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.webhooks.remove(ctx, id);
    return true;
  }

  @InGroup('developer')
  @Mutation(() => WebhookWithSecretPayload, { complexity: COST.write, description: 'A new secret that signs every later attempt at once.' })
  async rotateWebhookSecret(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<WebhookWithSecretPayload> {
    const { endpoint, secret } = await services.webhooks.rotateSecret(ctx, id);
    return { webhook: endpoint, secret };
  }

  @InGroup('developer')
  @Mutation(() => TestWebhookPayload, { complexity: COST.write, description: 'Sends webhook.test now, once; failures are reported in the payload.' })
  testWebhook(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<TestWebhookPayload> {
    return services.webhooks.test(ctx, id);
  }

  @InGroup('developer')
  @Mutation(() => WebhookDelivery, { complexity: COST.write, description: 'Queues a new delivery of a dead delivery’s event (same event id).' })
  redeliverWebhookDelivery(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<WebhookDelivery>> {
    return services.webhooks.redeliver(ctx, id);
  }
}
