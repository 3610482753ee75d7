import type { EntityClass, FilterQuery, FindOneOptions } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import type { NamedRecord } from './named-record.entity';

/**
 * The master record a record being created or changed is to refer to: one of the workspace's
 * (else a 400 naming `field`), and active — a deactivated town, route, role or class takes no new
 * references. A reference the record already has (`current`, its id) is not new: it may be sent
 * again unchanged. `label` names the kind in the message.
 */
export async function assignableMaster<E extends NamedRecord<any>, P extends string = never>(
  em: EntityManager,
  entity: EntityClass<E>,
  id: number,
  check: { field: string; label: string; current?: number | null; options?: FindOneOptions<E, P> },
) {
  const record = await em.findOne(entity, { id } as FilterQuery<E>, check.options);
  if (!record) throw new ValidationError(check.field, `does not name a ${check.label} of this workspace`);
  if (record.status !== ActiveStatus.ACTIVE && id !== check.current) throw new ValidationError(check.field, `names an inactive ${check.label}`);
  return record;
}
