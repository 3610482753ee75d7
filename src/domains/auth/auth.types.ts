import { Field, InputType, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { UserRead } from '../users/user-read';
import { Organization } from '../workspace/organization.entity';

@InputType({ description: 'Password sign-in.' })
export class LoginInput {
  @Field()
  email!: string;

  @Field()
  password!: string;

  @Field(() => String, { nullable: true, description: 'Proof from the bot-check widget (ALTCHA payload or Turnstile token); required.' })
  challengeToken?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A part of the web app the user may open.' })
export class NavigationModule {
  @Field({ description: 'Stable identifier, e.g. orders.' })
  key!: string;

  @Field()
  label!: string;

  @Field({ description: "Path of the web app's page." })
  path!: string;

  @Field(() => [String], { description: 'What the user may do there, e.g. view, create, update_status.' })
  actions!: string[];
}

@ObjectType({ simpleResolvers: true, description: 'A new session: the answer of every sign-in method.' })
export class SignInPayload {
  @Field({ description: 'Session token: send as Authorization: Bearer <token>. Ends every earlier session of the user.' })
  token!: string;

  /** Shown through SignInPayloadResolver, as a row. */
  user!: UserRead;

  @Field(() => Organization)
  workspace!: Row<Organization>;

  @Field(() => [NavigationModule])
  modules!: NavigationModule[];
}

@ObjectType({ simpleResolvers: true, description: 'A sent code or link. The same answer whether or not the account exists.' })
export class CodeSentPayload {
  @Field()
  message!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A single-use desktop sign-in code.' })
export class DesktopCodePayload {
  @Field()
  code!: string;

  @Field()
  expiresAt!: Date;
}
