import type { EntityClass, FilterQuery, FindOneOptions } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { ActiveStatus } from '../../db/active-status';
import { ValidationError } from '../../errors/app-error';
import type { NamedRecord } from './named-record.entity';

/**
 * The master record a record being created or changed is to refer to: one of the workspace's
 * (else a 400 naming `field`), and active (a deactivated town, route or class takes no new
 * records; those that already refer to it keep it). `label` names the kind in the message.
 */
export async function assignableMaster<E extends NamedRecord<any>, P extends string = never>(
  ctx: RequestContext,
  entity: EntityClass<E>,
  id: number,
  field: string,
  label: string,
  options?: FindOneOptions<E, P>,
) {
  const record = await ctx.em.findOne(entity, { id } as FilterQuery<E>, options);
  if (!record) throw new ValidationError(field, `does not name a ${label} of this workspace`);
  if (record.status !== ActiveStatus.ACTIVE) throw new ValidationError(field, `names an inactive ${label}`);
  return record;
}
