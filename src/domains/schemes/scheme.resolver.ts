import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { COST, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import type { SchemeInput as CheckedInput } from './scheme-rules';
import { slabOut, type PreviewSlab, type SchemeRead } from './scheme.service';
import { Scheme } from './scheme.entity';
import { SchemeInput, SchemeListArgs, SchemePreview, SchemePreviewInput } from './scheme.types';

const SchemePage = PageOf(Scheme, 'Scheme');
type SchemeNode = Omit<SchemeRead['scheme'], 'slabs'> & { slabs: PreviewSlab[]; budgetUsed: number | null; budgetLeft: number | null; state: string };
const nodeOf = (r: SchemeRead): SchemeNode => ({ ...r.scheme, slabs: r.scheme.slabs.map(slabOut), budgetUsed: r.budgetUsed, budgetLeft: r.budgetLeft, state: r.state });

@Authorized()
@Resolver()
export class SchemeResolver {
  @InGroup('schemes')
  @Query(() => SchemePage, { complexity: pageCost(), description: 'Schemes, highest priority first (staff).' })
  async schemes(@Args(() => SchemeListArgs) args: SchemeListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<SchemeNode>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.schemes.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map(nodeOf) });
  }

  @InGroup('schemes')
  @Query(() => Scheme, { complexity: COST.record, description: 'One scheme (staff).' })
  async scheme(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<SchemeNode> {
    return nodeOf(await services.schemes.get(ctx, id));
  }

  @InGroup('schemes')
  @Mutation(() => Scheme, { complexity: COST.write, description: 'Creates a scheme (admins and API keys).' })
  async createScheme(@Arg('input', () => SchemeInput) input: SchemeInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SchemeNode> {
    return nodeOf(await services.schemes.create(ctx, input as CheckedInput));
  }

  @InGroup('schemes')
  @Mutation(() => Scheme, { complexity: COST.write, description: 'Changes the fields given of a scheme (admins and API keys); disable it with status 2.' })
  async updateScheme(@Arg('id', () => Int) id: number, @Arg('input', () => SchemeInput) input: SchemeInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SchemeNode> {
    return nodeOf(await services.schemes.update(ctx, id, input as Partial<CheckedInput>));
  }

  @InGroup('schemes')
  @Query(() => SchemePreview, { complexity: COST.record, description: 'What the schemes would do to a cart: the evaluation order creation runs (customers: their own cart).' })
  async schemePreview(@Arg('input', () => SchemePreviewInput) input: SchemePreviewInput, @Ctx() { ctx, services }: GraphqlContext): Promise<SchemePreview> {
    return services.schemes.preview(ctx, input);
  }
}
