import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { accountKey } from '../../context/rate-limits';
import type { Row } from '../../db/entity-rows';
import { Budget } from '../../graphql/budget';
import { COST } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { LoginInput, SignInPayload } from '../auth/auth.types';
import { signInPayload } from '../auth/auth.resolver';
import { createdOrderRowOf } from '../orders/order-priming';
import { userRowOf } from '../users/user-read';
import { User } from '../users/user.entity';
import { PortalDashboard, PortalInsight, PortalOrderInput, PortalProductPage, portalSchemeOf, ReorderPayload, UpdateMyProfileInput } from './portal.types';
import { CreateOrderPayload } from '../orders/order.types';

/**
 * The customer portal under a customer's session (API keys: 403, the `portal` group is refused to
 * keys; staff: 403). The caller's orders, statement, crate balances and password change are the
 * existing `orders`/`order`, `ledgerStatement`, `crateBalances` and `changePassword`, which already
 * serve a customer their own; these are the portal's own operations.
 */
@Resolver()
export class PortalResolver {
  @InGroup('portal')
  @Budget('signIn', ({ input }: { input: LoginInput }) => accountKey({ email: input.email }))
  @Mutation(() => SignInPayload, { complexity: COST.password, description: 'Customer portal sign-in: /auth/login’s rules for distributors and retailers; a staff account is FORBIDDEN.' })
  async portalLogin(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SignInPayload> {
    return signInPayload(await services.portal.login(ctx, input));
  }

  @Authorized()
  @InGroup('portal')
  @Query(() => PortalDashboard, { complexity: COST.dashboardStats, description: 'Open orders by status, balance with ageing, crates held, this month against last, schemes open to the customer.' })
  async portalDashboard(@Ctx() { ctx, services }: GraphqlContext): Promise<PortalDashboard> {
    const d = await services.portal.dashboard(ctx);
    return { ...d, schemes: d.schemes.map(portalSchemeOf) };
  }

  @Authorized()
  @InGroup('portal')
  @Query(() => PortalProductPage, { complexity: COST.page, description: "The customer's catalogue at today's prices, with the schemes open to them." })
  async portalProducts(
    @Arg('page', () => Int, { nullable: true }) page: number | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<PortalProductPage> {
    const found = await services.portal.products(ctx, { page: page ?? undefined, limit: limit ?? undefined });
    return { ...found, schemes: found.schemes.map(portalSchemeOf) };
  }

  @Authorized()
  @InGroup('portal')
  @Mutation(() => CreateOrderPayload, { complexity: COST.write, description: 'Places an order for the signed-in customer (the order service: same events, webhooks and schemes).' })
  async portalPlaceOrder(@Arg('input', () => PortalOrderInput) input: PortalOrderInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<CreateOrderPayload> {
    const placed = await services.portal.placeOrder(ctx, input);
    return { order: createdOrderRowOf(placed, loaders), deliveryOtp: placed.deliveryOtp };
  }

  @Authorized()
  @InGroup('portal')
  @Mutation(() => ReorderPayload, { complexity: COST.write, description: "Orders the paid lines of one of the customer's orders again, at today's prices and schemes; variants no longer sold are skipped." })
  async reorder(@Arg('orderId', () => Int) orderId: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<ReorderPayload> {
    const placed = await services.portal.reorder(ctx, orderId);
    return { order: createdOrderRowOf(placed, loaders), deliveryOtp: placed.deliveryOtp, sourceOrderId: placed.sourceOrderId, skipped: placed.skipped };
  }

  @Authorized()
  @InGroup('portal')
  @Mutation(() => User, { complexity: COST.write, description: 'Changes the signed-in customer’s contact details (checked as user updates are).' })
  async updateMyProfile(@Arg('input', () => UpdateMyProfileInput) input: UpdateMyProfileInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<User>> {
    return userRowOf(await services.portal.updateProfile(ctx, input), loaders);
  }

  @Authorized()
  @InGroup('portal')
  @Mutation(() => Boolean, { complexity: COST.write, description: 'Deletes the signed-in customer’s account: personal data erased, orders and ledger kept, session ended (README, Customer portal).' })
  async deleteMyAccount(@Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.portal.deleteAccount(ctx);
    return true;
  }

  @Authorized()
  @InGroup('portal')
  @Query(() => PortalInsight, { complexity: COST.dashboardStats, description: 'Usual orders and what is due to reorder, the balance and crates to return, each with its figures and sources.' })
  portalInsight(@Ctx() { ctx, services }: GraphqlContext): Promise<PortalInsight> {
    return services.portal.insight(ctx);
  }
}
