import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { WebhookEndpoint } from './webhook-endpoint.entity';

@InputType()
export class CreateWebhookInput {
  @Field()
  name!: string;

  @Field({ description: 'https:// URL that resolves only to public addresses.' })
  url!: string;

  @Field(() => [String], { nullable: true, description: 'order.created, order.delivered, order.cancelled, user.created, user.updated; default the first two.' })
  events?: string[] | null;
}

@InputType()
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => [String], { nullable: true })
  events?: string[] | null;

  @Field(() => Int, { nullable: true, description: '1 delivers, 0 pauses (queued deliveries are cancelled).' })
  status?: number | null;
}

@ArgsType()
export class WebhookDeliveryArgs {
  @Field(() => Int, { nullable: true })
  webhookId?: number | null;

  @Field(() => String, { nullable: true, description: 'pending, sending, sent or dead' })
  status?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 200, default 50' })
  limit?: number | null;
}

@ObjectType({ simpleResolvers: true })
export class WebhookWithSecretPayload {
  @Field(() => WebhookEndpoint)
  webhook!: Row<WebhookEndpoint>;

  @Field({ description: 'The signing secret. Shown only now.' })
  secret!: string;
}

@ObjectType({ simpleResolvers: true })
export class TestWebhookPayload {
  @Field()
  delivered!: boolean;

  @Field()
  eventId!: string;

  @Field(() => Int, { nullable: true })
  responseStatus!: number | null;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => String, { nullable: true })
  error!: string | null;
}
