import { wrap, type EntityClass, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { ProductClass } from '../domains/masters/product-class.entity';
import { ProductionUnit } from '../domains/masters/production-unit.entity';
import { Route } from '../domains/masters/route.entity';
import { Town } from '../domains/masters/town.entity';
import { OrderItem } from '../domains/orders/order-item.entity';
import { OrderStatusHistory } from '../domains/orders/order-status-history.entity';
import { ProductVariant } from '../domains/products/product-variant.entity';
import { Product } from '../domains/products/product.entity';
import { Role } from '../domains/users/role.entity';
import { User } from '../domains/users/user.entity';

/** Loads records by id in one tenant-filtered query per batch. */
function byId<E extends { id: number }>(em: EntityManager, entity: EntityClass<E>): DataLoader<number, E | null> {
  return new DataLoader(async (ids) => {
    const rows = await em.find(entity, { id: { $in: [...ids] } } as unknown as FilterQuery<E>);
    const found = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/**
 * Loads the children of many parents in one tenant-filtered query per batch, ordered by id, with
 * the to-one relations in `populate` joined into that same query.
 */
function childrenOf<E extends { id: number }>(
  em: EntityManager,
  entity: EntityClass<E>,
  parentKey: keyof E & string,
  populate: readonly string[] = [],
): DataLoader<number, E[]> {
  return new DataLoader(async (parentIds) => {
    const rows = await em.find(entity, { [parentKey]: { $in: [...parentIds] } } as FilterQuery<E>, {
      orderBy: { id: 'asc' } as never,
      populate: populate as never[],
    });
    const groups = new Map<number, E[]>(parentIds.map((id) => [id, []]));
    for (const row of rows) {
      const parent = row[parentKey] as unknown as { id: number };
      groups.get(parent.id)?.push(row);
    }
    return parentIds.map((id) => groups.get(id) ?? []);
  });
}

/** The per-request DataLoaders behind nested GraphQL fields; they make a page cost a fixed number of queries. */
export function createLoaders(em: EntityManager) {
  return {
    user: byId(em, User),
    role: byId(em, Role),
    town: byId(em, Town),
    route: byId(em, Route),
    productionUnit: byId(em, ProductionUnit),
    productClass: byId(em, ProductClass),
    product: byId(em, Product),
    variant: byId(em, ProductVariant),
    // An order's lines are almost always shown with their variant and product.
    orderItems: childrenOf(em, OrderItem, 'order', ['variant.product']),
    statusHistory: childrenOf(em, OrderStatusHistory, 'order'),
    productVariants: childrenOf(em, ProductVariant, 'product'),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** Resolves a to-one relation: the loaded entity when it is, else one batched load by id. */
export async function related<E extends { id: number }>(
  ref: E | null | undefined,
  loader: DataLoader<number, E | null>,
): Promise<E | null> {
  if (!ref) return null;
  if (wrap(ref).isInitialized()) return ref;
  return loader.load(ref.id);
}
