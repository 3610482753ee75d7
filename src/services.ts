import type { AppDependencies } from './app';
import { SessionService } from './domains/auth/session.service';
import { MasterService } from './domains/masters/master.service';
import { OrderService } from './domains/orders/order.service';
import { ProductService } from './domains/products/product.service';
import { UserService } from './domains/users/user.service';
import { SignupService } from './domains/workspace/signup.service';
import { WorkspaceService } from './domains/workspace/workspace.service';

/** One instance of each domain service, shared by the REST shim and the GraphQL resolvers. */
export function createServices(deps: Pick<AppDependencies, 'secrets'>) {
  const sessions = new SessionService(deps.secrets.jwtSecret);
  return {
    sessions,
    signup: new SignupService(sessions),
    workspace: new WorkspaceService(),
    users: new UserService(),
    masters: new MasterService(),
    products: new ProductService(),
    orders: new OrderService(deps.secrets.hashKey),
  };
}

export type Services = ReturnType<typeof createServices>;
