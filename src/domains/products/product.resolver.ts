import { wrap } from '@mikro-orm/core';
import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import { related, type Related, type Resolvable } from '../../graphql/loaders';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { ProductClass } from '../masters/product-class.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { CreateProductInput, ProductListArgs } from './product.types';
import { ASSUMED_LENGTH, COST, listCost, pageCost } from '../../graphql/costs';

const ProductPage = PageOf(Product, 'Product');

// Authorized per operation, not per class: a class's `@Authorized()` would also guard each of its
// field resolvers, on every call, and keep them on TypeGraphQL's handler (see callFieldResolversDirectly).
@Resolver(() => Product)
export class ProductResolver {
  @Authorized()
  @InGroup('products')
  @Query(() => ProductPage, { complexity: pageCost(), description: 'The catalogue, newest first.' })
  async products(@Args(() => ProductListArgs) args: ProductListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<Product>> {
    const { page, limit, ...filter } = args;
    return toPage(await services.products.list(ctx, filter, { page, limit }));
  }

  @Authorized()
  @InGroup('products')
  @Query(() => Product, { complexity: COST.record })
  product(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<Product> {
    return services.products.get(ctx, id);
  }

  @Authorized()
  @InGroup('products')
  @Mutation(() => Product, { complexity: COST.write, description: 'Admins only.' })
  createProduct(@Arg('input', () => CreateProductInput) input: CreateProductInput, @Ctx() { ctx, services }: GraphqlContext): Promise<Product> {
    return services.products.create(ctx, input);
  }

  @FieldResolver(() => ProductClass, { complexity: COST.relation })
  productClass(@Root() product: Resolvable<Product>, @Ctx() { loaders }: GraphqlContext): Related<ProductClass> {
    return related(product.productClass, loaders.productClass);
  }

  @FieldResolver(() => [ProductVariant], { complexity: listCost(COST.relation, ASSUMED_LENGTH.productVariants) })
  async variants(@Root() product: Resolvable<Product>, @Ctx() { loaders }: GraphqlContext): Promise<Array<Resolvable<ProductVariant>>> {
    if (product instanceof Product && wrap(product).isInitialized() && product.variants.isInitialized()) return product.variants.getItems();
    return loaders.productVariants.load(product.id);
  }
}

@Resolver(() => ProductVariant)
export class ProductVariantResolver {
  @FieldResolver(() => Product, { complexity: COST.relation })
  product(@Root() variant: Resolvable<ProductVariant>, @Ctx() { loaders }: GraphqlContext): Related<Product> {
    return related(variant.product, loaders.product);
  }
}
