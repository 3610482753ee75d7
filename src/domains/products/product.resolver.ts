import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { Row } from '../../db/entity-rows';
import type { Related } from '../../graphql/loaders';
import type { Loaders } from '../domain-module';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { ProductClass } from '../masters/product-class.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import type { ProductRead } from './product-read';
import { CreateProductInput, ProductListArgs, UpdateProductInput, UpdateVariantInput, VariantInput } from './product.types';
import { ASSUMED_LENGTH, COST, listCost, pageCost } from '../../graphql/costs';

const ProductPage = PageOf(Product, 'Product');

/** A product's row; it, its class and its variants are handed to the loaders (its variants name it as their product). */
function productRowOf(read: ProductRead, loaders: Loaders): Row<Product> {
  loaders.product.prime([read.product]);
  loaders.productClass.prime([read.productClass]);
  loaders.productVariants.prime(read.product.id, read.variants);
  return read.product;
}

// Authorized per operation, not per class: a class's `@Authorized()` would also guard each of its
// field resolvers, which serve this type wherever it appears (another type's relation included).
@Resolver(() => Product)
export class ProductResolver {
  @Authorized()
  @InGroup('products')
  @Query(() => ProductPage, { complexity: pageCost(), description: 'The catalogue, newest first.' })
  async products(@Args(() => ProductListArgs) args: ProductListArgs, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Page<Row<Product>>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.products.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map((read) => productRowOf(read, loaders)) });
  }

  @Authorized()
  @InGroup('products')
  @Query(() => Product, { complexity: COST.record })
  async product(@Arg('id', () => Int) id: number, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Product>> {
    return productRowOf(await services.products.get(ctx, id), loaders);
  }

  @Authorized()
  @InGroup('products')
  @Mutation(() => Product, { complexity: COST.write, description: 'Admins only.' })
  async createProduct(@Arg('input', () => CreateProductInput) input: CreateProductInput, @Ctx() { ctx, services, loaders }: GraphqlContext): Promise<Row<Product>> {
    return productRowOf(await services.products.create(ctx, input), loaders);
  }

  @Authorized()
  @InGroup('products')
  @Mutation(() => Product, { complexity: COST.write, description: 'Admins only. Omitted fields stay; an inactive product cannot be ordered, old orders keep it.' })
  async updateProduct(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateProductInput) input: UpdateProductInput,
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<Row<Product>> {
    return productRowOf(await services.products.update(ctx, id, input), loaders);
  }

  @Authorized()
  @InGroup('products')
  @Mutation(() => ProductVariant, { complexity: COST.write, description: 'Admins only. Its SKU code must be free in the workspace.' })
  async addProductVariant(
    @Arg('productId', () => Int) productId: number,
    @Arg('input', () => VariantInput) input: VariantInput,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<ProductVariant>> {
    return services.products.addVariant(ctx, productId, input);
  }

  @Authorized()
  @InGroup('products')
  @Mutation(() => ProductVariant, { complexity: COST.write, description: 'Admins only. Omitted fields stay; a new price applies to new orders only.' })
  async updateProductVariant(
    @Arg('productId', () => Int) productId: number,
    @Arg('variantId', () => Int) variantId: number,
    @Arg('input', () => UpdateVariantInput) input: UpdateVariantInput,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<ProductVariant>> {
    return services.products.updateVariant(ctx, productId, variantId, input);
  }

  @FieldResolver(() => ProductClass, { complexity: COST.relation })
  productClass(@Root() product: Row<Product>, @Ctx() { loaders }: GraphqlContext): Related<Row<ProductClass>> {
    return loaders.productClass.load(product.productClass);
  }

  @FieldResolver(() => [ProductVariant], { complexity: listCost(COST.relation, ASSUMED_LENGTH.productVariants) })
  variants(@Root() product: Row<Product>, @Ctx() { loaders }: GraphqlContext): Promise<Array<Row<ProductVariant>>> {
    return loaders.productVariants.load(product.id);
  }
}

@Resolver(() => ProductVariant)
export class ProductVariantResolver {
  @FieldResolver(() => Product, { complexity: COST.relation })
  product(@Root() variant: Row<ProductVariant>, @Ctx() { loaders }: GraphqlContext): Related<Row<Product>> {
    return loaders.product.load(variant.product);
  }
}
