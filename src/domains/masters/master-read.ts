import type { EntityManager } from '@mikro-orm/postgresql';
import { loadedRows, rowOf, rowsById, type Row } from '../../db/entity-rows';
import type { Role } from '../users/role.entity';
import type { CrateType } from './crate-type.entity';
import type { MasterEntity, MasterKind } from './master-kinds';
import type { NoSaleReason } from './no-sale-reason.entity';
import type { Outlet } from './outlet.entity';
import type { ProductClass } from './product-class.entity';
import type { ProductionUnit } from './production-unit.entity';
import { Route } from './route.entity';
import { Town } from './town.entity';

/** The row of a master record of any kind. */
export type MasterRow = Row<ProductClass> | Row<Role> | Row<Town> | Row<Route> | Row<ProductionUnit> | Row<Outlet> | Row<NoSaleReason> | Row<CrateType>;

/**
 * A master record as REST and GraphQL show it: its row and the rows of the places it names (a
 * route's town; an outlet's town and route), null where its kind names none.
 */
export interface MasterRead {
  record: MasterRow;
  town: Row<Town> | null;
  route: Row<Route> | null;
}

/** The places a row of any kind may name, by id. */
type Places = { town?: number; route?: number };

/** The reads of one kind's rows: the places they name, one statement per kind of place (none for kinds without). */
export async function masterReads(em: EntityManager, kind: MasterKind, records: MasterRow[]): Promise<MasterRead[]> {
  const placed = records as Places[];
  const named = (place: keyof Places) => (kind.places.includes(place) ? placed.map((r) => r[place] ?? null) : []);
  const [towns, routes] = await Promise.all([rowsById(em, Town, named('town')), rowsById(em, Route, named('route'))]);
  return records.map((record, i) => ({
    record,
    town: towns.get(placed[i].town ?? 0) ?? null,
    route: routes.get(placed[i].route ?? 0) ?? null,
  }));
}

/** The read of a record the service just wrote, whose places it loaded with it (the kind's `places`). */
export function masterReadOf(em: EntityManager, kind: MasterKind, record: MasterEntity): MasterRead {
  const places = record as { town?: Town; route?: Route };
  return {
    record: rowOf(em, kind.entity as never, record) as MasterRow,
    town: loadedRows(em, Town, [places.town])[0] ?? null,
    route: loadedRows(em, Route, [places.route])[0] ?? null,
  };
}
