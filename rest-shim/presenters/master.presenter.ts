import { Type, type TSchema } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { MasterKindName } from '../../src/domains/masters/master-kinds';
import type { MasterRead } from '../../src/domains/masters/master-read';
import type { ProductClass } from '../../src/domains/masters/product-class.entity';
import type { Role } from '../../src/domains/users/role.entity';
import type { Outlet } from '../../src/domains/masters/outlet.entity';
import type { Route } from '../../src/domains/masters/route.entity';
import type { CrateType } from '../../src/domains/masters/crate-type.entity';
import { Nullable, Timestamp } from '../schemas';

const id = { id: Type.Integer() };
const tail = { status: Type.Integer({ description: '1 active, 0 inactive' }), createdAt: Timestamp };

/** How each master kind is named and shaped over REST. */
export const MASTER_REST: Record<MasterKindName, { nameField: string; body: TSchema; present(read: MasterRead): object }> = {
  'product-classes': {
    nameField: 'product_class',
    body: Type.Object({ ...id, product_class: Type.String(), unit: Type.String(), ...tail }),
    present: ({ record }) => ({ product_class: record.name, unit: (record as Row<ProductClass>).unit }),
  },
  roles: {
    nameField: 'role_name',
    body: Type.Object({ ...id, role_name: Type.String(), description: Type.String(), ...tail }),
    present: ({ record }) => ({ role_name: record.name, description: (record as Row<Role>).description }),
  },
  towns: {
    nameField: 'town_name',
    body: Type.Object({ ...id, town_name: Type.String(), ...tail }),
    present: ({ record }) => ({ town_name: record.name }),
  },
  routes: {
    nameField: 'route_name',
    body: Type.Object({ ...id, route_name: Type.String(), town_id: Type.Integer(), town_name: Type.String(), ...tail }),
    present: ({ record, town }) => ({ route_name: record.name, town_id: (record as Row<Route>).town, town_name: town!.name }),
  },
  'production-units': {
    nameField: 'production_unit_name',
    body: Type.Object({ ...id, production_unit_name: Type.String(), ...tail }),
    present: ({ record }) => ({ production_unit_name: record.name }),
  },
  'no-sale-reasons': {
    nameField: 'no_sale_reason',
    body: Type.Object({ ...id, no_sale_reason: Type.String(), ...tail }),
    present: ({ record }) => ({ no_sale_reason: record.name }),
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
    present: ({ record, town, route }) => {
      const o = record as Row<Outlet>;
      return {
        outlet_name: o.name,
        town_id: o.town,
        town_name: town!.name,
        route_id: o.route,
        route_name: route!.name,
        phone: o.phone,
        latitude: o.latitude,
        longitude: o.longitude,
        tagged_at: o.taggedAt,
      };
    },
  },
  'crate-types': {
    nameField: 'crate_type_name',
    body: Type.Object({ ...id, crate_type_name: Type.String(), deposit_value: Type.Number(), ...tail }),
    present: ({ record }) => ({ crate_type_name: record.name, deposit_value: (record as Row<CrateType>).depositValue }),
  },
};

/** A master record in its REST shape, with the names of the places it names. */
export function presentMaster(kind: MasterKindName, read: MasterRead) {
  const { record } = read;
  return { id: record.id, ...MASTER_REST[kind].present(read), status: record.status, createdAt: record.createdAt };
}
