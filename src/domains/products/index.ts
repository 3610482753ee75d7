import type DataLoader from 'dataloader';
import type { EntityRecord } from '../../db/entity-records';
import { byId, childrenOf } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { ProductResolver, ProductVariantResolver } from './product.resolver';
import { ProductService } from './product.service';

declare module '../domain-module' {
  interface Services {
    products: ProductService;
  }
  interface Loaders {
    product: DataLoader<number, EntityRecord<Product> | null>;
    variant: DataLoader<number, EntityRecord<ProductVariant> | null>;
    productVariants: DataLoader<number, Array<EntityRecord<ProductVariant>>>;
  }
}

/** The catalogue: products and their variants (the SKUs orders are placed for). */
export const productsDomain = defineDomain({
  name: 'products',
  entities: [Product, ProductVariant],
  services: () => ({ products: new ProductService() }),
  resolvers: [ProductResolver, ProductVariantResolver],
  loaders: ({ ctx: { em }, selection }) => ({
    product: byId(em, Product, selection),
    variant: byId(em, ProductVariant, selection),
    productVariants: childrenOf(em, ProductVariant, 'product', selection),
  }),
  routeGroups: { products: 'scoped' },
});
