import { productsExport } from './products.export';
import type DataLoader from 'dataloader';
import type { Row } from '../../db/entity-rows';
import { byId, childrenOf, type RowLoader } from '../../graphql/loaders';
import { defineDomain } from '../domain-module';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { ProductResolver, ProductVariantResolver } from './product.resolver';
import { ProductService } from './product.service';
import { VariantPrice } from './variant-price.entity';
import { PriceService } from './price.service';
import { VariantPriceResolver } from './variant-price.resolver';

declare module '../domain-module' {
  interface Services {
    products: ProductService;
    prices: PriceService;
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
  entities: [Product, ProductVariant, VariantPrice],
  services: () => ({ products: new ProductService(), prices: new PriceService() }),
  resolvers: [ProductResolver, ProductVariantResolver, VariantPriceResolver],
  loaders: ({ ctx: { em }, columns }) => ({
    product: byId(em, Product, columns),
    variant: byId(em, ProductVariant, columns),
    productVariants: childrenOf(em, ProductVariant, 'product', columns),
  }),
  routeGroups: { products: 'scoped' },
  exports: [productsExport],
  // Every 15 minutes: a price version applies within a quarter hour of its local midnight (zones at :30 and :45 included).
  cron: [{ task: 'apply_due_prices', match: '*/15 * * * *', identifier: 'apply_due_prices' }],
});
