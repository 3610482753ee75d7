import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { ApiKey } from './api-key.entity';

@InputType()
export class CreateApiKeyInput {
  @Field({ description: 'A label for the integration, e.g. "ERP sync".' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Comma-separated tokens: read, write, * (read,write) and groups (orders, users, products, masters, dashboard, exports, reports, workspace). Default read.',
  })
  scopes?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 3650; omit for a key that does not expire.' })
  expiresInDays?: number | null;
}

@ObjectType({ simpleResolvers: true })
export class CreatedApiKeyPayload {
  @Field(() => ApiKey)
  apiKey!: Row<ApiKey>;

  @Field({ description: 'The key itself. Shown only this once: only its hash is stored.' })
  key!: string;
}
