import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, type Row } from '../../db/entity-rows';
import { Organization } from './organization.entity';

/** The row of the workspace `id` (which the caller's session or key names, so it exists). */
export async function organizationRow(em: EntityManager, id: number): Promise<Row<Organization>> {
  const [row] = await findRows(em, Organization, { id });
  if (!row) throw new Error(`Organization ${id} not found`);
  return row;
}
