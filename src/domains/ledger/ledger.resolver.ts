import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import type { Related } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { User } from '../users/user.entity';
import { LedgerEntry } from './ledger-entry.entity';
import type { PagedStatement } from './ledger.service';
import { LedgerEntryListArgs, LedgerNoteInput, LedgerStatement, OpeningBalanceInput } from './ledger.types';

const LedgerEntryPage = PageOf(LedgerEntry, 'LedgerEntry');

@Authorized()
@Resolver()
export class LedgerResolver {
  @InGroup('ledger')
  @Query(() => LedgerStatement, {
    complexity: COST.ledgerStatement,
    description: 'A customer’s statement: opening balance, the rows with a running balance, closing balance and ageing (staff and keys: any customer; a customer: their own).',
  })
  ledgerStatement(
    @Arg('customerId', () => Int, { nullable: true, description: 'Required for staff; a customer reads their own' }) customerId: number | null,
    @Arg('from', () => String, { nullable: true, description: 'YYYY-MM-DD (default: the 1st of to’s month)' }) from: string | null,
    @Arg('to', () => String, { nullable: true, description: 'YYYY-MM-DD (default: today, the workspace’s local day)' }) to: string | null,
    @Arg('page', () => Int, { nullable: true, description: 'Page of the rows, from 1 (default 1)' }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Rows a page, 1 to 100 (default 20)' }) limit: number | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<PagedStatement> {
    return services.ledger.statement(ctx, { customerId, from, to }, { page: page ?? undefined, limit: limit ?? undefined });
  }

  @InGroup('ledger')
  @Query(() => LedgerEntryPage, { complexity: pageCost(), description: 'Ledger rows, newest day first unless sorted.' })
  async ledgerEntries(@Args(() => LedgerEntryListArgs) args: LedgerEntryListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<Row<LedgerEntry>>> {
    const { page, limit, sort, ...filter } = args;
    return toPage(await services.ledger.list(ctx, filter, { page, limit, sort }));
  }

  @InGroup('ledger')
  @Query(() => LedgerEntry, { complexity: COST.record, description: 'One ledger row.' })
  ledgerEntry(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<LedgerEntry>> {
    return services.ledger.get(ctx, id);
  }

  @InGroup('ledger')
  @Mutation(() => LedgerEntry, { complexity: COST.write, description: 'Posts a credit or debit note (administrators and API keys).' })
  postLedgerNote(@Arg('input', () => LedgerNoteInput) input: LedgerNoteInput, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<LedgerEntry>> {
    return services.ledger.postNote(ctx, input);
  }

  @InGroup('ledger')
  @Mutation(() => LedgerEntry, { complexity: COST.write, description: 'Posts a customer’s opening balance, once (administrators and API keys).' })
  postOpeningBalance(@Arg('input', () => OpeningBalanceInput) input: OpeningBalanceInput, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<LedgerEntry>> {
    return services.ledger.postOpeningBalance(ctx, input);
  }

  @InGroup('ledger')
  @Mutation(() => LedgerEntry, { complexity: COST.write, description: 'Reverses a note or an opening balance with a row on the other side, once (administrators and API keys).' })
  reverseLedgerEntry(
    @Arg('id', () => Int) id: number,
    @Arg('reason', () => String, { description: 'Required, at most 500 characters' }) reason: string,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<LedgerEntry>> {
    return services.ledger.reverse(ctx, id, reason);
  }
}

@Resolver(() => LedgerEntry)
export class LedgerEntryFieldsResolver {
  @FieldResolver(() => User, { complexity: COST.relation, description: 'Whose account.' })
  customer(@Root() entry: Pick<Row<LedgerEntry>, 'customer'>, @Ctx() { loaders }: GraphqlContext): Related<Row<User>> {
    return loaders.user.load(entry.customer);
  }
}
