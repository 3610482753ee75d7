import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import type { FocRead } from './foc-read';
import { FocRequest, FocRequestLine } from './foc.entity';
import { FocListArgs, SubmitFocInput } from './foc.types';

const FocPage = PageOf(FocRequest, 'FocRequest');
type FocRow = Row<FocRequest> & { lines: Array<Row<FocRequestLine>> };
/** GraphQL's row of a FOC request: its lines come with it. */
const rowOfRead = ({ request, lines }: FocRead): FocRow => ({ ...request, lines });

@Authorized()
@Resolver()
export class FocResolver {
  @InGroup('foc')
  @Query(() => FocPage, { complexity: pageCost(), description: 'FOC requests, newest first (staff; employees see their own).' })
  async focRequests(@Args(() => FocListArgs) args: FocListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<FocRow>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.foc.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map(rowOfRead) });
  }

  @InGroup('foc')
  @Query(() => FocRequest, { complexity: COST.record, description: 'One FOC request (employees: their own).' })
  async focRequest(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<FocRow> {
    return rowOfRead(await services.foc.get(ctx, id));
  }

  @InGroup('foc')
  @Mutation(() => FocRequest, { complexity: COST.write, description: 'Submits a FOC request and asks for its approval (auto-approved under the policy’s first threshold).' })
  async submitFocRequest(@Arg('input', () => SubmitFocInput) input: SubmitFocInput, @Ctx() { ctx, services }: GraphqlContext): Promise<FocRow> {
    return rowOfRead(await services.foc.submit(ctx, input));
  }

  @InGroup('foc')
  @Mutation(() => FocRequest, { complexity: COST.write, description: 'The requester or an administrator cancels a submitted or approved request.' })
  async cancelFocRequest(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<FocRow> {
    return rowOfRead(await services.foc.cancel(ctx, id));
  }

  @InGroup('foc')
  @Mutation(() => FocRequest, { complexity: COST.write, description: 'An administrator fulfils an approved request once: a zero-priced order, linked.' })
  async fulfilFocRequest(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<FocRow> {
    return rowOfRead(await services.foc.fulfil(ctx, id));
  }
}

@Resolver(() => FocRequest)
export class FocFieldsResolver {
  @FieldResolver(() => [FocRequestLine], { complexity: listCost(COST.property, 8), description: 'Its lines.' })
  lines(@Root() request: Partial<FocRow>): Array<Row<FocRequestLine>> {
    return request.lines ?? [];
  }

  @FieldResolver(() => Int, { complexity: COST.property, description: 'The distributor or retailer the goods are for.' })
  customerId(@Root() request: Pick<Row<FocRequest>, 'customer'>): number {
    return request.customer;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Who asked (null: an API key).' })
  requestedByUserId(@Root() request: Pick<Row<FocRequest>, 'requestedBy'>): number | null {
    return request.requestedBy;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Its approval (kind foc).' })
  approvalId(@Root() request: Pick<Row<FocRequest>, 'approval'>): number | null {
    return request.approval;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The zero-priced order it became.' })
  fulfilledOrderId(@Root() request: Pick<Row<FocRequest>, 'fulfilledOrder'>): number | null {
    return request.fulfilledOrder;
  }
}

@Resolver(() => FocRequestLine)
export class FocLineFieldsResolver {
  @FieldResolver(() => Int, { complexity: COST.property })
  productVariantId(@Root() line: Pick<Row<FocRequestLine>, 'variant'>): number {
    return line.variant;
  }
}
