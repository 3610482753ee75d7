import { defineDomain } from '../domain-module';
import { Payment } from './payment.entity';
import { PaymentAllocation } from './payment-allocation.entity';
import { PaymentFieldsResolver, PaymentResolver } from './payment.resolver';
import { PaymentService } from './payment.service';

declare module '../domain-module' {
  interface Services {
    payments: PaymentService;
  }
}

/** Payments collected against orders. */
export const paymentsDomain = defineDomain({
  name: 'payments',
  entities: [Payment, PaymentAllocation],
  services: () => ({ payments: new PaymentService() }),
  resolvers: [PaymentResolver, PaymentFieldsResolver],
  routeGroups: { payments: 'scoped' },
});
