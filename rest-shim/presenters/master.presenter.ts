import { Type, type TSchema } from '@sinclair/typebox';
import type { MasterEntity, MasterKindName } from '../../src/domains/masters/master-kinds';
import type { ProductClass } from '../../src/domains/masters/product-class.entity';
import type { Role } from '../../src/domains/users/role.entity';
import type { Outlet } from '../../src/domains/masters/outlet.entity';
import type { Route } from '../../src/domains/masters/route.entity';
import { Nullable, Timestamp } from '../schemas';

const id = { id: Type.Integer() };
const tail = { status: Type.Integer({ description: '1 active, 0 inactive' }), createdAt: Timestamp };

/** How each master kind is named and shaped over REST. */
export const MASTER_REST: Record<MasterKindName, { nameField: string; body: TSchema; present(e: MasterEntity): object }> = {
  'product-classes': {
    nameField: 'product_class',
    body: Type.Object({ ...id, product_class: Type.String(), unit: Type.String(), ...tail }),
    present: (e) => ({ product_class: e.name, unit: (e as ProductClass).unit }),
  },
  roles: {
    nameField: 'role_name',
    body: Type.Object({ ...id, role_name: Type.String(), description: Type.String(), ...tail }),
    present: (e) => ({ role_name: e.name, description: (e as Role).description }),
  },
  towns: {
    nameField: 'town_name',
    body: Type.Object({ ...id, town_name: Type.String(), ...tail }),
    present: (e) => ({ town_name: e.name }),
  },
  routes: {
    nameField: 'route_name',
    body: Type.Object({ ...id, route_name: Type.String(), town_id: Type.Integer(), town_name: Type.String(), ...tail }),
    present: (e) => ({ route_name: e.name, town_id: (e as Route).town.id, town_name: (e as Route).town.name }),
  },
  'production-units': {
    nameField: 'production_unit_name',
    body: Type.Object({ ...id, production_unit_name: Type.String(), ...tail }),
    present: (e) => ({ production_unit_name: e.name }),
  },
  outlets: {
    nameField: 'outlet_name',
    body: Type.Object({
      ...id,
      outlet_name: Type.String(),
      town_id: Type.Integer(),
      town_name: Type.String(),
      route_id: Type.Integer(),
      route_name: Type.String(),
      phone: Type.String(),
      latitude: Nullable(Type.Number()),
      longitude: Nullable(Type.Number()),
      tagged_at: Nullable(Timestamp),
      ...tail,
    }),
    present: (e) => {
      const o = e as Outlet;
      return {
        outlet_name: o.name,
        town_id: o.town.id,
        town_name: o.town.name,
        route_id: o.route.id,
        route_name: o.route.name,
        phone: o.phone,
        latitude: o.latitude,
        longitude: o.longitude,
        tagged_at: o.taggedAt,
      };
    },
  },
};

/** A master record in its REST shape. */
export function presentMaster(kind: MasterKindName, e: MasterEntity) {
  return { id: e.id, ...MASTER_REST[kind].present(e), status: e.status, createdAt: e.createdAt };
}
