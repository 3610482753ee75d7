import { productsExport } from './products.export';
import type DataLoader from 'dataloader';
import type { Row } from '../../db/entity-rows';
import { byId, childrenOf, type RowLoader } from '../../graphql/loaders';
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
    product: RowLoader<Row<Product>>;
    variant: RowLoader<Row<ProductVariant>>;
    productVariants: DataLoader<number, Array<Row<ProductVariant>>>;
  }
}

/** The catalogue: products and their variants (the SKUs orders are placed for). */
export const productsDomain = defineDomain({
  name: 'products',
  entities: [Product, ProductVariant],
  services: () => ({ products: new ProductService() }),
  resolvers: [ProductResolver, ProductVariantResolver],
  loaders: ({ ctx: { em }, columns }) => ({
    product: byId(em, Product, columns),
    variant: byId(em, ProductVariant, columns),
    productVariants: childrenOf(em, ProductVariant, 'product', columns),
  }),
  routeGroups: { products: 'scoped' },
  exports: [productsExport],
});
