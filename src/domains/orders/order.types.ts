import type { Row } from '../../db/entity-rows';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { ORDER_SORT } from './order-statements';
import { Order, OrderStatus } from './order.entity';

@ArgsType()
export class OrderListArgs extends SortedPageArgs(ORDER_SORT) {
  @Field(() => OrderStatus, { nullable: true })
  status?: OrderStatus;

  @Field({ nullable: true, description: 'Earliest order date, YYYY-MM-DD' })
  dateFrom?: string;

  @Field({ nullable: true, description: 'Latest order date, YYYY-MM-DD' })
  dateTo?: string;

  @Field(() => Int, { nullable: true, description: 'The customer' })
  userId?: number;

  @Field({ nullable: true, description: 'Matches the order code or the customer name' })
  search?: string;

  @Field(() => Int, { nullable: true, description: 'A production unit of the workspace' })
  productionUnitId?: number;

  @Field(() => Int, { nullable: true, description: "The order's town, a town of the workspace" })
  townId?: number;

  @Field(() => Int, { nullable: true, description: "The order's route, a route of the workspace" })
  routeId?: number;

  @Field({ nullable: true, description: 'true: only cancelled orders; false: only orders not cancelled; unset: both' })
  cancelled?: boolean;
}

@InputType()
export class OrderLineInput {
  @Field(() => Int)
  productVariantId!: number;

  @Field(() => Int)
  quantity!: number;
}

@InputType({ description: 'A new order for a distributor or retailer.' })
export class CreateOrderInput {
  @Field(() => Int, { description: 'The customer: a distributor or retailer' })
  userId!: number;

  @Field(() => [OrderLineInput])
  items!: OrderLineInput[];

  @Field({ nullable: true, description: 'YYYY-MM-DD, default today (UTC)' })
  orderDate?: string;

  @Field(() => String, { nullable: true, description: 'Requested delivery date, YYYY-MM-DD' })
  deliveryDate?: string | null;

  @Field(() => Int, { nullable: true })
  productionUnitId?: number | null;

  @Field(() => String, { nullable: true, description: 'cash, credit, upi, card, bank_transfer or cheque' })
  modeOfPayment?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A placed order and its delivery OTP, shown only here.' })
export class CreateOrderPayload {
  @Field(() => Order)
  order!: Row<Order>;

  @Field({ description: 'Six digits; stored only as a keyed hash' })
  deliveryOtp!: string;
}
