import { raw, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from './user.entity';

/**
 * Sign-in lookups. They run before any workspace is known (the e-mail or phone is what tells
 * which one), so they are the documented exception to the tenant filter: e-mail and phone are
 * unique across all workspaces, and each lookup returns at most that one person.
 */

/** Matches an e-mail address case-insensitively, using the lower(official_email) index. */
export function emailCondition(email: string): FilterQuery<User> {
  return { [raw((alias: string) => `lower(${alias}.official_email)`)]: email.trim().toLowerCase() };
}

/** The user signing in with this e-mail (any workspace), with the password hash; null when none. */
export function findUserByEmail(em: EntityManager, email: string): Promise<User | null> {
  return em.findOne(User, emailCondition(email), { filters: false, populate: ['passwordHash'] });
}

/** The user signing in with this phone number (compact form; any workspace); null when none. */
export function findUserByPhone(em: EntityManager, phone: string): Promise<User | null> {
  return em.findOne(User, { primaryContactNumber: phone }, { filters: false });
}
