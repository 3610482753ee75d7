import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError } from '../../errors/app-error';
import { entityList, equalTo, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { likeEscape } from '../../lists/search';
import { requireStaff } from '../auth/permissions';
import type { Outlet } from './outlet.entity';
import { masterReadOf, masterReads, type MasterRead, type MasterRow } from './master-read';
import { MASTER_KINDS, type MasterEntity, type MasterInput, type MasterKind, type MasterKindName } from './master-kinds';
import { ACTIVE_STATUSES, ActiveStatus } from '../../db/active-status';
import { sortable } from '../../lists/sort';

/** Filters of a master list. */
export interface MasterFilter {
  search?: string;
  status?: number;
}

/** Every master list: by name unless sorted. */
export const MASTER_SORT = sortable<keyof MasterEntity & string>({
  name: 'Master',
  fields: { name: 'name', status: 'status', created_at: 'createdAt', id: 'id' },
  default: 'name',
});

/** A kind's list, searched by name (the places its records name are read after the page). */
const listOf = (kind: MasterKind) => entityList<MasterEntity>({ entity: kind.entity, sort: MASTER_SORT, searchIn: ['name'] });

/** Lists, creates and changes the master records (product classes, roles, towns, routes, production units, outlets). */
export class MasterService {
  /** Any caller of the workspace may read masters; ordered by name. */
  async list(ctx: RequestContext, kindName: MasterKindName, filter: MasterFilter, pageRequest: PageRequest): Promise<Paginated<MasterRead>> {
    const kind = this.kind(kindName);
    const page = await readPage(ctx.em, listOf(kind), equalTo<MasterEntity, MasterFilter>(filter, ['status']), { ...pageRequest, search: filter.search });
    return { ...page, items: await masterReads(ctx.em, kind, page.items as MasterRow[]) };
  }

  /** Admin only; a duplicate name is 409. */
  async create(ctx: RequestContext, kindName: MasterKindName, input: MasterInput): Promise<MasterRead> {
    ctx.requireAdminOrKey();
    const kind = this.kind(kindName);
    const data = {
      name: rules.requiredText('name', input.name, 120),
      status: input.status == null ? 1 : this.status(input.status),
      ...(await kind.extras(ctx, input, true)),
    } as Partial<MasterEntity>;
    await this.assertNameFree(ctx, kind, data);
    const record = ctx.em.create(kind.entity, { ...data, organizationId: ctx.organizationId } as never);
    await ctx.em.flush();
    return masterReadOf(ctx.em, kind, record);
  }

  /** Admin only; omitted fields stay as they are. */
  async update(ctx: RequestContext, kindName: MasterKindName, id: number, input: MasterInput): Promise<MasterRead> {
    ctx.requireAdminOrKey();
    const kind = this.kind(kindName);
    const record = await this.record(ctx, kind, id);
    const data = {
      ...(input.name != null ? { name: rules.requiredText('name', input.name, 120) } : {}),
      ...(input.status != null ? { status: this.status(input.status) } : {}),
      ...(await kind.extras(ctx, input, false, record)),
    } as Partial<MasterEntity>;
    await this.assertNameFree(ctx, kind, { name: record.name, ...data }, record);
    if (data.status === ActiveStatus.INACTIVE && record.status !== ActiveStatus.INACTIVE) await this.assertUnused(ctx, kind, record);
    ctx.em.assign(record, data as never);
    await ctx.em.flush();
    return masterReadOf(ctx.em, kind, record);
  }

  /**
   * Admin only: a soft delete, status 0. Refused (409) while an active record uses it (the kind's
   * `usedBy`); an already inactive record is answered as it is (`changed` false).
   */
  async deactivate(ctx: RequestContext, kindName: MasterKindName, id: number): Promise<{ read: MasterRead; changed: boolean }> {
    ctx.requireAdminOrKey();
    const kind = this.kind(kindName);
    const record = await this.record(ctx, kind, id);
    if (record.status === ActiveStatus.INACTIVE) return { read: masterReadOf(ctx.em, kind, record), changed: false };
    await this.assertUnused(ctx, kind, record);
    record.status = ActiveStatus.INACTIVE;
    await ctx.em.flush();
    return { read: masterReadOf(ctx.em, kind, record), changed: true };
  }

  /**
   * Staff (and API keys) tag an outlet on a visit: its location and the moment are recorded. A
   * later tag replaces both.
   */
  async tagOutlet(ctx: RequestContext, id: number, at: { latitude: number; longitude: number }): Promise<MasterRead> {
    requireStaff(ctx);
    const latitude = rules.coordinate('latitude', at.latitude, 90);
    const longitude = rules.coordinate('longitude', at.longitude, 180);
    const kind = this.kind('outlets');
    const outlet = (await this.record(ctx, kind, id)) as Outlet;
    ctx.em.assign(outlet, { latitude, longitude, taggedAt: new Date() });
    await ctx.em.flush();
    return masterReadOf(ctx.em, kind, outlet);
  }

  /** One record of the workspace to change, with its places, or 404. */
  private async record(ctx: RequestContext, kind: MasterKind, id: number): Promise<MasterEntity> {
    const record = await ctx.em.findOne(kind.entity, { id } as FilterQuery<MasterEntity>, { populate: kind.places as never[] });
    if (!record) throw new NotFoundError(kind.label, id);
    return record;
  }

  private kind(name: MasterKindName): MasterKind {
    return MASTER_KINDS[name] as unknown as MasterKind;
  }

  private status(value: number): number {
    return rules.oneOf('status', value, ACTIVE_STATUSES);
  }

  /** 409 naming what uses the record, while any active record of the workspace does (counted under the tenant filter). */
  private async assertUnused(ctx: RequestContext, kind: MasterKind, record: MasterEntity) {
    const counts = await Promise.all(
      kind.usedBy.map(async (use) => ({
        use,
        count: 'count' in use
          ? await use.count(ctx.em, ctx.organizationId, record.id)
          : await ctx.em.count(use.entity, { ...use.active, [use.property]: record.id } as FilterQuery<object>),
      })),
    );
    const users = counts.filter(({ count }) => count > 0).map(({ use, count }) => `${count} ${count === 1 ? use.one : use.many}`);
    if (users.length > 0) throw new ConflictError(`${kind.label} "${record.name}" is used by ${listed(users)}`);
  }

  private async assertNameFree(ctx: RequestContext, kind: MasterKind, data: Partial<MasterEntity>, current?: MasterEntity) {
    const name = { $ilike: likeEscape(data.name ?? '') }; // "Milk" and "milk" are the same town or class
    const where = { name, ...kind.uniqueWith(data, current), ...(current ? { id: { $ne: current.id } } : {}) };
    const clashes = await ctx.em.count(kind.entity, where as FilterQuery<MasterEntity>);
    if (clashes > 0) throw new ConflictError(`${kind.label} "${data.name}" already exists`);
  }
}

/** "a", "a and b", "a, b and c". */
function listed(parts: string[]): string {
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
