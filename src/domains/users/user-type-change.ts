import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../../errors/app-error';
import { Order } from '../orders/order.entity';
import { isCustomerType, User, UserType } from './user.entity';

const TYPE_NAMES: Record<UserType, string> = {
  [UserType.ADMIN]: 'an administrator',
  [UserType.EMPLOYEE]: 'an employee',
  [UserType.DISTRIBUTOR]: 'a distributor',
  [UserType.RETAILER]: 'a retailer',
};

/**
 * The user_type change rule (README, API notes), refusing (409) what would orphan data:
 * - an administrator never becomes a customer (distributor or retailer);
 * - a user with orders, as the customer or as the one who placed them, does not move between
 *   customer and staff (their orders would name a customer who is staff, or staff who is a customer);
 * - distributor ↔ retailer and admin ↔ employee are free (the last active admin is guarded by
 *   assertAnotherActiveAdmin).
 */
export async function assertTypeChangeAllowed(em: EntityManager, user: User, next: UserType): Promise<void> {
  const from = user.userType;
  if (next === from) return;
  if (from === UserType.ADMIN && isCustomerType(next)) {
    throw new ConflictError(`An administrator cannot become ${TYPE_NAMES[next]}; create a separate customer account instead`);
  }
  if (isCustomerType(from) === isCustomerType(next)) return;
  const orders = await em.count(Order, { $or: [{ customer: user.id }, { createdBy: user.id }] });
  if (orders > 0) {
    throw new ConflictError(
      `This user has ${orders} order(s) as customer or placer, so they cannot change from ${TYPE_NAMES[from]} to ${TYPE_NAMES[next]}; create a separate account instead`,
    );
  }
}
