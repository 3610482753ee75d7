import { Arg, Args, ArgsType, Authorized, Ctx, Field, FieldResolver, Float, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import { Order } from '../orders/order.entity';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { SortedPageArgs } from '../../graphql/sort.types';
import { PAYMENT_SORT } from './payment-statements';
import { InGroup } from '../../graphql/route-group';
import { Payment } from './payment.entity';
import { paymentRowOf, type PaymentRow } from './payment-read';
import { COST, pageCost } from '../../graphql/costs';

const PaymentPage = PageOf(Payment, 'Payment');

@ObjectType({ simpleResolvers: true, description: 'What an on-account payment settled against one order (net; negative on a void).' })
class PaymentAllocationShare {
  @Field(() => Int)
  orderId!: number;

  @Field(() => Float)
  amount!: number;
}

@ArgsType()
class PaymentListArgs extends SortedPageArgs(PAYMENT_SORT) {
  @Field(() => Int, { nullable: true })
  orderId?: number | null;

  @Field(() => Int, { nullable: true })
  customerId?: number | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD, the workspace’s local day' })
  dateFrom?: string | null;

  @Field(() => String, { nullable: true })
  dateTo?: string | null;
}

@InputType()
class RecordPaymentInput {
  @Field(() => Int, { nullable: true, description: 'The order it was collected against; or, instead, customerId.' })
  orderId?: number | null;

  @Field(() => Int, { nullable: true, description: 'On account (no orderId): the customer who paid; allocated oldest-first over their open delivered orders.' })
  customerId?: number | null;

  @Field(() => Float, { description: 'With orderId: at most what the order still owes.' })
  amount!: number;

  @Field(() => String, { nullable: true, description: 'cash (default), credit, upi, card, bank_transfer or cheque' })
  modeOfPayment?: string | null;

  @Field(() => Date, { nullable: true, description: 'Default now.' })
  paidAt?: Date | null;

  @Field(() => String, { nullable: true })
  reference?: string | null;
}

@Authorized()
@Resolver()
export class PaymentResolver {
  @InGroup('payments')
  @Query(() => PaymentPage, { complexity: pageCost(), description: 'Payments, newest first (staff).' })
  async payments(@Args(() => PaymentListArgs) args: PaymentListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<PaymentRow>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.payments.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => paymentRowOf(read, loaders)) });
  }

  @InGroup('payments')
  @Mutation(() => Payment, {
    complexity: COST.write,
    description: 'Records money collected against an order, or on account from a customer, allocated oldest-first over their open delivered orders (staff and API keys).',
  })
  async recordPayment(@Arg('input', () => RecordPaymentInput) input: RecordPaymentInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<PaymentRow> {
    return paymentRowOf(await services.payments.record(ctx, input), loaders);
  }

  @InGroup('payments')
  @Mutation(() => Payment, {
    complexity: COST.write,
    description: 'Allocates what an on-account payment left unallocated over the customer’s open delivered orders, oldest first (staff and API keys); CONFLICT when nothing is left or nothing is owed.',
  })
  async allocatePayment(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<PaymentRow> {
    return paymentRowOf(await services.payments.allocate(ctx, id), loaders);
  }

  @InGroup('payments')
  @Mutation(() => Payment, {
    complexity: COST.write,
    description: 'Voids a payment recorded by mistake (administrators and API keys): answers the void, a payment of the negated amount naming it; the ledger posts the reversal.',
  })
  async voidPayment(
    @Arg('id', () => Int) id: number,
    @Arg('reason', () => String, { description: 'Required, at most 500 characters' }) reason: string,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<PaymentRow> {
    return paymentRowOf(await services.payments.void(ctx, id, reason), loaders);
  }
}

@Resolver(() => Payment)
export class PaymentFieldsResolver {
  @FieldResolver(() => Order, { nullable: true, complexity: COST.relation, description: 'The order the money was collected against; null on account.' })
  order(@Root() payment: Row<Payment>, @Ctx() { loaders }: GraphqlContext): Related<Row<Order>> | null {
    // Lists and records read it with the payment and hand it over (paymentRowOf).
    return payment.order === null ? null : loaders.order.load(payment.order);
  }

  @FieldResolver(() => [PaymentAllocationShare], { complexity: COST.property, description: 'On account: what it settled against each order, oldest first (net); empty for an order payment.' })
  allocations(@Root() payment: PaymentRow): PaymentAllocationShare[] {
    // Every query and mutation answering a Payment reads them with it (payment-statements.ts).
    return payment.allocations ?? [];
  }

  @FieldResolver(() => Float, { complexity: COST.property, description: 'On account: the amount less its allocations (an advance); 0 for an order payment.' })
  unallocatedAmount(@Root() payment: PaymentRow): number {
    return payment.unallocatedAmount ?? 0;
  }
}
