import type { EntityManager } from '@mikro-orm/postgresql';
import { rowOf, rowsById, type Row } from '../../db/entity-rows';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import type { Loaders } from '../domain-module';
import { CrateType } from '../masters/crate-type.entity';
import { User } from '../users/user.entity';
import type { CrateBalance } from './crate-balances';
import { CrateMovement } from './crate-movement.entity';

/** A movement as REST and GraphQL show it: its row, its customer's and crate type's, and the reversal that undid it (if one did). */
export interface CrateMovementRead {
  movement: Row<CrateMovement>;
  customer: Row<User>;
  crateType: Row<CrateType>;
  /** The id of the reversal of this movement; null while it stands. */
  reversedById: number | null;
}

/** A balance with its customer's and crate type's rows. */
export interface CrateBalanceRead {
  balance: CrateBalance;
  customer: Row<User>;
  crateType: Row<CrateType>;
}

/** The customers and crate types rows name, by id (one statement each), failing loudly on a miss (required keys of the workspace). */
async function referenced(em: EntityManager, refs: ReadonlyArray<{ customer: number; crateType: number }>) {
  const [customers, types] = await Promise.all([rowsById(em, User, refs.map((r) => r.customer)), rowsById(em, CrateType, refs.map((r) => r.crateType))]);
  return (ref: { customer: number; crateType: number }) => {
    const customer = customers.get(ref.customer);
    const crateType = types.get(ref.crateType);
    if (!customer || !crateType) throw new Error(`Customer ${ref.customer} or crate type ${ref.crateType} not found`);
    return { customer, crateType };
  };
}

/** The reads of movement rows: customers and types by id, and which of them were reversed (one statement). */
export async function readCrateMovements(em: EntityManager, organizationId: number, movements: ReadonlyArray<Row<CrateMovement>>): Promise<CrateMovementRead[]> {
  if (movements.length === 0) return [];
  const t = tenantSql(organizationId, 'r');
  const [refs, reversals] = await Promise.all([
    referenced(em, movements),
    executeSql<{ id: number; reverses_id: number }>(em, sql`select r.id, r.reverses_id from crate_movement r where ${t.owns()} and r.reverses_id in (${movements.map((m) => m.id)})`),
  ]);
  const reversedBy = new Map(reversals.map((r) => [r.reverses_id, r.id]));
  return movements.map((movement) => ({ movement, ...refs(movement), reversedById: reversedBy.get(movement.id) ?? null }));
}

/** The read of a movement the service has just written. */
export async function crateMovementReadOf(em: EntityManager, organizationId: number, movement: CrateMovement): Promise<CrateMovementRead> {
  const [read] = await readCrateMovements(em, organizationId, [rowOf(em, CrateMovement, movement)]);
  return read;
}

/** The reads of balances: customers and types by id. */
export async function readCrateBalances(em: EntityManager, balances: readonly CrateBalance[]): Promise<CrateBalanceRead[]> {
  const refs = await referenced(em, balances.map((b) => ({ customer: b.customerId, crateType: b.crateTypeId })));
  return balances.map((balance) => ({ balance, ...refs({ customer: balance.customerId, crateType: balance.crateTypeId }) }));
}

/** GraphQL's row of a movement read: its customer and type go to the loaders of the nested fields. */
export function crateMovementRowOf(read: CrateMovementRead, loaders: Loaders): Row<CrateMovement> & { reversedById: number | null } {
  loaders.user.prime([read.customer]);
  loaders.crateType.prime([read.crateType]);
  return { ...read.movement, reversedById: read.reversedById };
}

/** GraphQL's balance: its customer and type go to the loaders; the outstanding value is balance × deposit value. */
export function crateBalanceNodeOf(read: CrateBalanceRead, loaders: Loaders) {
  loaders.user.prime([read.customer]);
  loaders.crateType.prime([read.crateType]);
  return { ...read.balance, outstandingValue: outstandingValueOf(read) };
}

/** balance × the type's deposit value, to the paisa. */
export function outstandingValueOf(read: CrateBalanceRead): number {
  return Math.round(read.balance.balance * read.crateType.depositValue * 100) / 100;
}
