import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../../errors/app-error';
import { emailCondition } from './user-lookup';
import { User } from './user.entity';

/** What the uniqueness check leaves out. */
export interface ContactCheckOptions {
  /** The user being edited: their own e-mail and phone do not conflict with themselves. */
  exceptUserId?: number;
}

/**
 * E-mail and phone identify a person at sign-in, which happens before any workspace is known,
 * so both are unique across all workspaces. Refuses (409) a value already in use by anyone but
 * `options.exceptUserId`; a null value is not checked (not given, or not changing).
 */
export async function assertContactsUnused(
  em: EntityManager,
  officialEmail: string | null,
  primaryContactNumber: string | null,
  options: ContactCheckOptions = {},
): Promise<void> {
  const lookup = em.fork();
  const others = options.exceptUserId === undefined ? {} : { id: { $ne: options.exceptUserId } };
  if (officialEmail) {
    const byEmail = await lookup.count(User, { $and: [emailCondition(officialEmail), others] }, { filters: false });
    if (byEmail > 0) throw new ConflictError('A user with this e-mail address already exists');
  }
  if (primaryContactNumber) {
    const byPhone = await lookup.count(User, { primaryContactNumber, ...others }, { filters: false });
    if (byPhone > 0) throw new ConflictError('A user with this phone number already exists');
  }
}
