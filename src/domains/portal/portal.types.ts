import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { LedgerAgeing } from '../ledger/ledger.types';
import { OrderLineInput } from '../orders/order.types';
import { Order, OrderStatus } from '../orders/order.entity';
import { SchemeSlab, SchemeKind, SchemeTarget } from '../schemes/scheme.entity';
import { slabOut } from '../schemes/scheme.service';
import type { OpenScheme } from '../schemes/scheme-apply';

@ObjectType({ simpleResolvers: true, description: 'A scheme open to the signed-in customer today.' })
export class PortalScheme {
  @Field(() => Int) id!: number;
  @Field() code!: string;
  @Field() name!: string;
  @Field(() => SchemeKind) kind!: SchemeKind;
  @Field(() => SchemeTarget) targetKind!: SchemeTarget;
  @Field(() => Int) targetId!: number;
  @Field() validFrom!: string;
  @Field(() => String, { nullable: true }) validTo!: string | null;
  @Field(() => Int) priority!: number;
  @Field() stackable!: boolean;
  @Field(() => [SchemeSlab]) slabs!: SchemeSlab[];
}

/** An open scheme as GraphQL shows it (slabs camelCase). */
export function portalSchemeOf(s: OpenScheme): PortalScheme {
  return { ...s, slabs: s.slabs.map(slabOut) };
}

@ObjectType({ simpleResolvers: true, description: "A sellable variant of the customer's catalogue at today's price." })
export class PortalProduct {
  @Field(() => Int) productVariantId!: number;
  @Field() variantName!: string;
  @Field() itemSkuCode!: string;
  @Field(() => Int) productId!: number;
  @Field() productName!: string;
  @Field(() => Int) productClassId!: number;
  @Field() productClassName!: string;
  @Field(() => Float) mrp!: number;
  @Field(() => Float, { description: "Today's selling price (the rate list in force)" }) price!: number;
  @Field(() => [Int], { description: 'The schemes (of `schemes`) open to the customer that target this variant' }) schemeIds!: number[];
}

@ObjectType({ simpleResolvers: true })
export class PortalProductPage {
  @Field(() => [PortalProduct]) items!: PortalProduct[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
  @Field({ description: 'The day of the prices and schemes (the workspace’s local today)' }) date!: string;
  @Field(() => [PortalScheme], { description: 'The schemes open to the customer today that target a variant of this page' }) schemes!: PortalScheme[];
}

@ObjectType({ simpleResolvers: true, description: 'A line of the earlier order left out of a reorder.' })
export class SkippedReorderLine {
  @Field(() => Int) productVariantId!: number;
  @Field(() => Int) quantity!: number;
  @Field() reason!: string;
}

@ObjectType({ simpleResolvers: true, description: "A reorder: the new order (today's prices and schemes) and what was left out." })
export class ReorderPayload {
  @Field(() => Order) order!: Row<Order>;
  @Field({ description: 'Six digits; stored only as a keyed hash' }) deliveryOtp!: string;
  @Field(() => Int) sourceOrderId!: number;
  @Field(() => [SkippedReorderLine]) skipped!: SkippedReorderLine[];
}

@InputType({ description: 'An order the signed-in customer places for themselves.' })
export class PortalOrderInput {
  @Field(() => [OrderLineInput]) items!: OrderLineInput[];
  @Field(() => String, { nullable: true, description: 'Requested delivery date, YYYY-MM-DD' }) deliveryDate?: string | null;
  @Field(() => Int, { nullable: true }) productionUnitId?: number | null;
  @Field(() => String, { nullable: true, description: 'cash, credit, upi, card, bank_transfer or cheque' }) modeOfPayment?: string | null;
}

@InputType({ description: 'The contact details a customer changes on their profile; omitted fields stay, null clears officialEmail and storeName.' })
export class UpdateMyProfileInput {
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) officialEmail?: string | null;
  @Field(() => String, { nullable: true }) primaryContactNumber?: string | null;
  @Field(() => String, { nullable: true }) storeName?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class PortalOpenOrdersByStatus {
  @Field(() => OrderStatus) status!: OrderStatus;
  @Field(() => Int) count!: number;
  @Field(() => Float) amount!: number;
}

@ObjectType({ simpleResolvers: true, description: 'Orders neither delivered nor cancelled.' })
export class PortalOpenOrders {
  @Field(() => Int) total!: number;
  @Field(() => Float) amount!: number;
  @Field(() => [PortalOpenOrdersByStatus]) byStatus!: PortalOpenOrdersByStatus[];
}

@ObjectType({ simpleResolvers: true, description: 'The balance today (the ledger statement function).' })
export class PortalBalance {
  @Field(() => Float, { description: 'Positive: the customer owes' }) outstanding!: number;
  @Field(() => LedgerAgeing) ageing!: LedgerAgeing;
  @Field(() => String, { nullable: true, description: 'The oldest ageing bucket holding money' }) oldestBucket!: string | null;
}

@ObjectType({ simpleResolvers: true })
export class PortalCrates {
  @Field(() => Int, { description: 'Crates held, all types' }) held!: number;
  @Field(() => Float) outstandingValue!: number;
  @Field(() => Int, { nullable: true, description: 'Days since the oldest crate still held arrived' }) oldestAgeDays!: number | null;
  @Field(() => Int, { description: 'Crate types held' }) types!: number;
}

@ObjectType({ simpleResolvers: true, description: "This month's purchases (orders not cancelled, by order date) against last month's." })
export class PortalPurchases {
  @Field(() => Float) thisMonth!: number;
  @Field(() => Float) lastMonth!: number;
  @Field(() => Int) thisMonthOrders!: number;
  @Field(() => Int) lastMonthOrders!: number;
  @Field(() => Float, { nullable: true, description: 'Percent change; null when last month had none' }) change!: number | null;
  @Field() thisMonthFrom!: string;
  @Field() lastMonthFrom!: string;
  @Field() lastMonthTo!: string;
}

@ObjectType({ simpleResolvers: true, description: "The customer portal's dashboard." })
export class PortalDashboard {
  @Field() date!: string;
  @Field(() => PortalOpenOrders) openOrders!: PortalOpenOrders;
  @Field(() => PortalBalance) balance!: PortalBalance;
  @Field(() => PortalCrates) crates!: PortalCrates;
  @Field(() => PortalPurchases) purchases!: PortalPurchases;
  @Field(() => [PortalScheme]) schemes!: PortalScheme[];
}

@ObjectType({ simpleResolvers: true })
export class PortalInsightPeriod {
  @Field() from!: string;
  @Field() to!: string;
  @Field(() => Int, { nullable: true }) weeks?: number;
}

@ObjectType({ simpleResolvers: true, description: 'One finding: words, the figures in them, and the rows they come from.' })
export class PortalInsightItem {
  @Field({ description: 'due_to_reorder, usual_order, no_pattern, due_to_buy, balance or crates' }) kind!: string;
  @Field() text!: string;
  @Field(() => GraphQLJSONObject) figures!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: 'Order ids, the period, the statement’s ageing or the crate balances the figures come from' }) source!: Record<string, unknown>;
}

@ObjectType({ simpleResolvers: true, description: "A deterministic summary of the customer's own data (no language model)." })
export class PortalInsight {
  @Field() date!: string;
  @Field(() => PortalInsightPeriod, { description: 'The weeks usual orders are read from, before the current week' }) period!: PortalInsightPeriod;
  @Field(() => PortalInsightPeriod, { description: 'The 7 days ending today' }) thisWeek!: PortalInsightPeriod;
  @Field(() => [PortalInsightItem]) items!: PortalInsightItem[];
}
