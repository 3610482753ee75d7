import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../errors/app-error';

/**
 * A list filter that names another record (`town_id`, `route_id`, ...): `id` when it names a record
 * of the caller's workspace (the ORM's tenant filter applies to `em`), else a 400 naming `field`,
 * so a mistyped or foreign id is refused rather than answered with an empty page.
 */
export async function ownRecordId<E extends { id: number }>(em: EntityManager, entity: EntityClass<E>, field: string, id: number): Promise<number> {
  if ((await em.count(entity, { id } as FilterQuery<E>)) === 0) throw new ValidationError(field, 'does not name a record of this workspace');
  return id;
}
