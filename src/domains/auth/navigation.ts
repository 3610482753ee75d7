import { UserType } from '../users/user.entity';

/** A part of the web app a user may open, with what they may do there. */
export interface NavigationModule {
  /** Stable identifier for the client's router, e.g. `orders`. */
  key: string;
  /** Label in the menu. */
  label: string;
  /** Path of the app's page. */
  path: string;
  /** What the user may do in it, e.g. `view`, `create`, `update_status`. */
  actions: string[];
}

const menuEntry = (key: string, label: string, actions: string[]): NavigationModule => ({ key, label, path: `/${key.replace(/_/g, '-')}`, actions });

/** The menu of each kind of user; it mirrors the permission checks in the services. */
const MODULES: Record<UserType, NavigationModule[]> = {
  [UserType.ADMIN]: [
    menuEntry('dashboard', 'Dashboard', ['view']),
    menuEntry('orders', 'Orders', ['view', 'create', 'update_status']),
    menuEntry('users', 'Users', ['view', 'create']),
    menuEntry('products', 'Products', ['view', 'create']),
    menuEntry('masters', 'Masters', ['view', 'create', 'update']),
    menuEntry('exports', 'Exports', ['download']),
    menuEntry('workspace_settings', 'Workspace settings', ['view', 'update']),
    menuEntry('developer', 'Developer', ['manage_api_keys', 'manage_webhooks']),
  ],
  [UserType.EMPLOYEE]: [
    menuEntry('dashboard', 'Dashboard', ['view']),
    menuEntry('orders', 'Orders', ['view', 'create', 'update_status']),
    menuEntry('users', 'Users', ['view']),
    menuEntry('products', 'Products', ['view']),
    menuEntry('masters', 'Masters', ['view']),
    menuEntry('exports', 'Exports', ['download']),
    menuEntry('workspace_settings', 'Workspace settings', ['view']),
  ],
  [UserType.DISTRIBUTOR]: [menuEntry('orders', 'My orders', ['view', 'create']), menuEntry('products', 'Products', ['view'])],
  [UserType.RETAILER]: [menuEntry('orders', 'My orders', ['view', 'create']), menuEntry('products', 'Products', ['view'])],
};

/** The navigation modules a user of this type may open, in menu order. */
export function navigationFor(userType: UserType): NavigationModule[] {
  return MODULES[userType];
}
