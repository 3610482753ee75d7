import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError } from '../../errors/app-error';
import { entityList, equalTo, readPage } from '../../lists/entity-list';
import type { PageRequest, Paginated } from '../../lists/page-request';
import * as rules from '../../validation/rules';
import { likeEscape } from '../../lists/search';
import { requireStaff } from '../auth/permissions';
import type { Outlet } from './outlet.entity';
import { MASTER_KINDS, type MasterEntity, type MasterInput, type MasterKind, type MasterKindName } from './master-kinds';
import { ACTIVE_STATUSES } from '../../db/active-status';

/** Filters of a master list. */
export interface MasterFilter {
  search?: string;
  status?: number;
}

/** A kind's list: by name, searched by name. */
const listOf = (kind: MasterKind) =>
  entityList<MasterEntity>({ entity: kind.entity, orderBy: { name: 'asc', id: 'asc' }, populate: kind.populate, searchIn: ['name'] });

/** Lists, creates and changes the master records (product classes, roles, towns, routes, production units, outlets). */
export class MasterService {
  /** Any caller of the workspace may read masters; ordered by name. */
  async list(ctx: RequestContext, kindName: MasterKindName, filter: MasterFilter, pageRequest: PageRequest): Promise<Paginated<MasterEntity>> {
    const kind = this.kind(kindName);
    return readPage(ctx.em, listOf(kind), equalTo<MasterEntity, MasterFilter>(filter, ['status']), { ...pageRequest, search: filter.search });
  }

  /** One record of the workspace, or 404. */
  async get(ctx: RequestContext, kindName: MasterKindName, id: number): Promise<MasterEntity> {
    const kind = this.kind(kindName);
    const record = await ctx.em.findOne(kind.entity, { id } as FilterQuery<MasterEntity>, { populate: kind.populate as never[] });
    if (!record) throw new NotFoundError(kind.label, id);
    return record;
  }

  /** Admin only; a duplicate name is 409. */
  async create(ctx: RequestContext, kindName: MasterKindName, input: MasterInput): Promise<MasterEntity> {
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
    return record;
  }

  /** Admin only; omitted fields stay as they are. */
  async update(ctx: RequestContext, kindName: MasterKindName, id: number, input: MasterInput): Promise<MasterEntity> {
    ctx.requireAdminOrKey();
    const kind = this.kind(kindName);
    const record = await this.get(ctx, kindName, id);
    const data = {
      ...(input.name != null ? { name: rules.requiredText('name', input.name, 120) } : {}),
      ...(input.status != null ? { status: this.status(input.status) } : {}),
      ...(await kind.extras(ctx, input, false, record)),
    } as Partial<MasterEntity>;
    await this.assertNameFree(ctx, kind, { name: record.name, ...data }, record);
    ctx.em.assign(record, data as never);
    await ctx.em.flush();
    return record;
  }

  /**
   * Staff (and API keys) tag an outlet on a visit: its location and the moment are recorded. A
   * later tag replaces both.
   */
  async tagOutlet(ctx: RequestContext, id: number, at: { latitude: number; longitude: number }): Promise<Outlet> {
    requireStaff(ctx);
    const latitude = rules.coordinate('latitude', at.latitude, 90);
    const longitude = rules.coordinate('longitude', at.longitude, 180);
    const outlet = (await this.get(ctx, 'outlets', id)) as Outlet;
    ctx.em.assign(outlet, { latitude, longitude, taggedAt: new Date() });
    await ctx.em.flush();
    return outlet;
  }

  private kind(name: MasterKindName): MasterKind {
    return MASTER_KINDS[name] as unknown as MasterKind;
  }

  private status(value: number): number {
    return rules.oneOf('status', value, ACTIVE_STATUSES);
  }

  private async assertNameFree(ctx: RequestContext, kind: MasterKind, data: Partial<MasterEntity>, current?: MasterEntity) {
    const name = { $ilike: likeEscape(data.name ?? '') }; // "Milk" and "milk" are the same town or class
    const where = { name, ...kind.uniqueWith(data, current), ...(current ? { id: { $ne: current.id } } : {}) };
    const clashes = await ctx.em.count(kind.entity, where as FilterQuery<MasterEntity>);
    if (clashes > 0) throw new ConflictError(`${kind.label} "${data.name}" already exists`);
  }
}

