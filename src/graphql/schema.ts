import type { GraphQLSchema } from 'graphql';
import { buildSchema, type AuthChecker } from 'type-graphql';
import { ApiKeyResolver } from '../domains/api-keys/api-key.resolver';
import { WebhookResolver } from '../domains/webhooks/webhook.resolver';
import { AttendanceResolver } from '../domains/attendance/attendance.resolver';
import { PaymentResolver } from '../domains/payments/payment.resolver';
import { DashboardResolver } from '../domains/dashboard/dashboard.resolver';
import { ExportResolver } from '../domains/exports/export.resolver';
import { AuthResolver } from '../domains/auth/auth.resolver';
import { PasskeyResolver } from '../domains/auth/passkey.resolver';
import { SignInCodesResolver } from '../domains/auth/sign-in-codes.resolver';
import { MASTER_RESOLVERS } from '../domains/masters/master.resolver';
import { OrderItemResolver, OrderResolver } from '../domains/orders/order.resolver';
import { ProductResolver, ProductVariantResolver } from '../domains/products/product.resolver';
import { UserResolver } from '../domains/users/user.resolver';
import { WorkspaceResolver } from '../domains/workspace/workspace.resolver';
import type { GraphqlContext } from './context';
import { callFieldResolversDirectly } from './direct-field-resolvers';

/** `@Authorized()` fields need a credential; finer rules (admin, staff) live in the services. */
const authChecker: AuthChecker<GraphqlContext> = ({ context }) => {
  context.ctx.requirePrincipal();
  return true;
};

/** Every resolver of the gateway. */
export const RESOLVERS = [
  AuthResolver,
  SignInCodesResolver,
  PasskeyResolver,
  WorkspaceResolver,
  UserResolver,
  ProductResolver,
  ProductVariantResolver,
  ...MASTER_RESOLVERS,
  OrderResolver,
  OrderItemResolver,
  ApiKeyResolver,
  WebhookResolver,
  AttendanceResolver,
  PaymentResolver,
  DashboardResolver,
  ExportResolver,
] as const;

let cached: Promise<GraphQLSchema> | undefined;

/** Builds the TypeGraphQL schema once per process (its metadata is global). */
export function graphqlSchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({
    resolvers: RESOLVERS as unknown as [Function, ...Function[]],
    authChecker,
    validate: false,
    emitSchemaFile: false,
  }).then((schema) => {
    callFieldResolversDirectly(schema);
    return schema;
  });
  return cached;
}
