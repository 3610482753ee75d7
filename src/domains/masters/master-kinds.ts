import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import { customersHoldingCrates } from '../crates/crate-holders';
import { Order, OrderStatus } from '../orders/order.entity';
import { Product } from '../products/product.entity';
import { Role } from '../users/role.entity';
import { User } from '../users/user.entity';
import { CrateType } from './crate-type.entity';
import { NoSaleReason } from './no-sale-reason.entity';
import { Outlet } from './outlet.entity';
import { ProductClass } from './product-class.entity';
import { ProductionUnit } from './production-unit.entity';
import { Route } from './route.entity';
import { Town } from './town.entity';
import { assignableMaster } from './assignable-master';

/** Fields a master record may be created or changed with; each kind uses the ones it has. */
export interface MasterInput {
  name?: string;
  status?: number;
  /** Product classes: the unit quantities are counted in. */
  unit?: string;
  /** Roles: a description. */
  description?: string;
  /** Routes and outlets: the town the route lies in. */
  townId?: number;
  /** Outlets: the route the outlet is on (it must lie in the town). */
  routeId?: number;
  /** Outlets: a contact number. */
  phone?: string;
  /** Crate types: what one crate is worth. */
  depositValue?: number;
}

/** The master records users, products and orders refer to. */
export type MasterEntity = ProductClass | Role | Town | Route | ProductionUnit | Outlet | NoSaleReason | CrateType;

/**
 * Records of another kind that name a master record and, while active, keep it from being
 * deactivated (DELETE, or a change to status 0): a 409 names how many of each there are.
 */
export type MasterUse = RecordUse | CountedUse;

/** Uses counted as records of an entity that name the master record. */
export interface RecordUse {
  entity: EntityClass<object>;
  /** The property (a ManyToOne) naming the master record. */
  property: string;
  /** What one and several of them are called in the message: "active route", "active routes". */
  one: string;
  many: string;
  /** Which of them count: the conditions beside the reference, under the tenant filter. */
  active: FilterQuery<object>;
}

/** Uses that are not rows naming the record (customers holding crates of a type: a sum of movements), counted by a statement. */
export interface CountedUse {
  count(em: EntityManager, organizationId: number, id: number): Promise<number>;
  one: string;
  many: string;
}

const ACTIVE = { status: ActiveStatus.ACTIVE };
/** An order still on its way: neither delivered nor cancelled. */
const OPEN_ORDER = { status: { $lt: OrderStatus.DELIVERED }, cancelledAt: null };

const activeUsers = (property: 'role' | 'town' | 'route'): MasterUse => ({ entity: User, property, one: 'active user', many: 'active users', active: ACTIVE });
const openOrders = (property: 'town' | 'route' | 'productionUnit'): MasterUse => ({ entity: Order, property, one: 'open order', many: 'open orders', active: OPEN_ORDER });

/** How one kind of master record is stored and checked. */
export interface MasterKind<E extends MasterEntity = MasterEntity> {
  entity: EntityClass<E>;
  /** Singular, for messages. */
  label: string;
  /** The places a record names, which reads show with it (and writes load with it). */
  places: ReadonlyArray<'town' | 'route'>;
  /** Kind-specific fields of a create (all given) or an update (only those given). */
  extras(ctx: RequestContext, input: MasterInput, creating: boolean, current?: E): Promise<Partial<E>>;
  /** Extra columns that, with the name, must be unique in the workspace. */
  uniqueWith(data: Partial<E>, current?: E): Record<string, unknown>;
  /** What, while active, keeps a record of this kind from being deactivated. */
  usedBy: readonly MasterUse[];
}

const none = async () => ({});
const noScope = () => ({});

async function townOf(ctx: RequestContext, townId: number | undefined, creating: boolean, current?: number): Promise<Partial<Route>> {
  if (townId == null) {
    if (creating) throw new ValidationError('townId', 'is required');
    return {};
  }
  return { town: await assignableMaster(ctx.em, Town, townId, { field: 'townId', label: 'town', current }) };
}

/** An outlet's town and route: both on create, the route inside the town; on update either may change. */
async function placeOf(ctx: RequestContext, input: MasterInput, creating: boolean, current?: Outlet): Promise<Partial<Outlet>> {
  const town = input.townId != null ? (await townOf(ctx, input.townId, creating, current?.town.id)).town : undefined;
  if (creating && input.routeId == null) throw new ValidationError('routeId', 'is required');
  const route = input.routeId != null ? await assignableMaster(ctx.em, Route, input.routeId, { field: 'routeId', label: 'route', current: current?.route.id, options: { populate: ['town'] } }) : undefined;
  if (creating && input.townId == null) throw new ValidationError('townId', 'is required');
  const townId = (town ?? current?.town)?.id;
  const routeTownId = (route ?? current?.route)?.town.id;
  if ((town || route) && townId !== routeTownId) throw new ValidationError('routeId', 'is not a route of the given town');
  return { ...(town ? { town } : {}), ...(route ? { route } : {}) };
}

/** The master kinds, by their REST path segment. */
export const MASTER_KINDS = {
  'product-classes': {
    entity: ProductClass,
    label: 'Product class',
    places: [],
    extras: async (_ctx, input, creating) =>
      input.unit != null || creating ? { unit: rules.requiredText('unit', input.unit ?? 'piece', 20) } : {},
    uniqueWith: noScope,
    usedBy: [{ entity: Product, property: 'productClass', one: 'active product', many: 'active products', active: ACTIVE }],
  } satisfies MasterKind<ProductClass>,
  roles: {
    entity: Role,
    label: 'Role',
    places: [],
    extras: async (_ctx, input) =>
      input.description != null ? { description: rules.optionalText('description', input.description, 500) } : {},
    uniqueWith: noScope,
    usedBy: [activeUsers('role')],
  } satisfies MasterKind<Role>,
  towns: {
    entity: Town,
    label: 'Town',
    places: [],
    extras: none,
    uniqueWith: noScope,
    usedBy: [
      { entity: Route, property: 'town', one: 'active route', many: 'active routes', active: ACTIVE },
      { entity: Outlet, property: 'town', one: 'active outlet', many: 'active outlets', active: ACTIVE },
      activeUsers('town'),
      openOrders('town'),
    ],
  } satisfies MasterKind<Town>,
  routes: {
    entity: Route,
    label: 'Route',
    places: ['town'],
    extras: (ctx, input, creating, current) => townOf(ctx, input.townId, creating, (current as Route | undefined)?.town.id),
    uniqueWith: (data, current) => ({ town: data.town ?? current?.town }),
    usedBy: [
      { entity: Outlet, property: 'route', one: 'active outlet', many: 'active outlets', active: ACTIVE },
      activeUsers('route'),
      openOrders('route'),
    ],
  } satisfies MasterKind<Route>,
  'production-units': {
    entity: ProductionUnit,
    label: 'Production unit',
    places: [],
    extras: none,
    uniqueWith: noScope,
    usedBy: [openOrders('productionUnit')],
  } satisfies MasterKind<ProductionUnit>,
  outlets: {
    entity: Outlet,
    label: 'Outlet',
    places: ['town', 'route'],
    extras: async (ctx, input, creating, current) => ({
      ...(await placeOf(ctx, input, creating, current)),
      ...(input.phone != null || creating ? { phone: rules.phone('phone', input.phone ?? '') } : {}),
    }),
    uniqueWith: (data, current) => ({ route: data.route ?? current?.route }),
    usedBy: [], // nothing names an outlet
  } satisfies MasterKind<Outlet>,
  'no-sale-reasons': {
    entity: NoSaleReason,
    label: 'No-sale reason',
    places: [],
    extras: none,
    uniqueWith: noScope,
    // Nothing blocks deactivation: an inactive reason is refused for new check-outs, and the
    // visits that already name it keep it.
    usedBy: [],
  } satisfies MasterKind<NoSaleReason>,
  'crate-types': {
    entity: CrateType,
    label: 'Crate type',
    places: [],
    extras: async (_ctx, input, creating) =>
      input.depositValue != null || creating ? { depositValue: rules.money('depositValue', input.depositValue ?? 0) } : {},
    uniqueWith: noScope,
    // An inactive type takes no new issues; while customers still hold crates of it, it stays active
    // so their returns are recorded against a type the lists show as in use.
    usedBy: [{ count: customersHoldingCrates, one: 'customer holding crates', many: 'customers holding crates' }],
  } satisfies MasterKind<CrateType>,
};

export type MasterKindName = keyof typeof MASTER_KINDS;
