import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../../errors/app-error';
import { emailCondition } from './user-lookup';
import { User } from './user.entity';

/**
 * E-mail and phone identify a person at sign-in, which happens before any workspace is known,
 * so both are unique across all workspaces. Refuses (409) a value already in use.
 */
export async function assertContactsUnused(
  em: EntityManager,
  officialEmail: string | null,
  primaryContactNumber: string,
): Promise<void> {
  const lookup = em.fork();
  if (officialEmail) {
    const byEmail = await lookup.count(User, emailCondition(officialEmail), { filters: false });
    if (byEmail > 0) throw new ConflictError('A user with this e-mail address already exists');
  }
  const byPhone = await lookup.count(User, { primaryContactNumber }, { filters: false });
  if (byPhone > 0) throw new ConflictError('A user with this phone number already exists');
}
