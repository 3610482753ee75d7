import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsById, type Row } from '../../db/entity-rows';
import type { Loaders } from '../domain-module';
import { ProductClass } from '../masters/product-class.entity';
import { User } from '../users/user.entity';
import type { SalesTarget } from './sales-target.entity';

/** A sales target as REST and GraphQL show it: its row, its employee's and its product class's. */
export interface SalesTargetRead {
  target: Row<SalesTarget>;
  user: Row<User>;
  productClass: Row<ProductClass> | null;
}

/** The reads of target rows: their users and classes, one tenant-filtered statement each. */
export async function readSalesTargets(em: EntityManager, targets: ReadonlyArray<Row<SalesTarget>>): Promise<SalesTargetRead[]> {
  const [users, classes] = await Promise.all([
    rowsById(em, User, targets.map((t) => t.user)),
    rowsById(em, ProductClass, targets.map((t) => t.productClass)),
  ]);
  return targets.map((target) => {
    const user = users.get(target.user);
    // Required foreign keys of the same workspace: a miss is a broken database.
    if (!user) throw new Error(`User ${target.user} of sales target ${target.id} not found`);
    const productClass = target.productClass === null ? null : classes.get(target.productClass);
    if (productClass === undefined) throw new Error(`Product class ${target.productClass} of sales target ${target.id} not found`);
    return { target, user, productClass };
  });
}

/** GraphQL's row of a target read: its user and class are handed to the loaders of the nested fields. */
export function salesTargetRowOf(read: SalesTargetRead, loaders: Loaders): Row<SalesTarget> {
  loaders.user.prime([read.user]);
  if (read.productClass) loaders.productClass.prime([read.productClass]);
  return read.target;
}
