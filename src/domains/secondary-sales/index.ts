import { defineDomain } from '../domain-module';
import { SecondarySale, SecondarySaleLine } from './secondary-sale.entity';
import { SecondarySaleFieldsResolver, SecondarySaleLineFieldsResolver, SecondarySaleResolver } from './secondary-sale.resolver';
import { SecondarySaleService } from './secondary-sale.service';
import { secondarySalesExport } from './secondary-sales.export';

declare module '../domain-module' {
  interface Services {
    secondarySales: SecondarySaleService;
  }
}

/** Secondary sales: distributors' invoices to retailers, and the sell-in vs sell-out view. */
export const secondarySalesDomain = defineDomain({
  name: 'secondary-sales',
  entities: [SecondarySale, SecondarySaleLine],
  services: () => ({ secondarySales: new SecondarySaleService() }),
  resolvers: [SecondarySaleResolver, SecondarySaleFieldsResolver, SecondarySaleLineFieldsResolver],
  routeGroups: { secondary_sales: 'scoped' },
  exports: [secondarySalesExport],
});
