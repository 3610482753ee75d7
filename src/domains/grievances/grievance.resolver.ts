import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, listCost, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import type { GrievanceRead, PhotoRow } from './grievance-read';
import { breachesOf } from './grievance-rules';
import { Grievance, GrievancePhoto } from './grievance.entity';
import { GrievanceActionEnum, GrievanceListArgs, GrievancePhotoLink, RaiseGrievanceInput, ResolveGrievanceInput } from './grievance.types';

const GrievancePage = PageOf(Grievance, 'Grievance');
type GrievanceRow = Row<Grievance> & { photos: PhotoRow[]; now: Date };
const rowOfRead = ({ grievance, photos, now }: GrievanceRead): GrievanceRow => ({ ...grievance, photos, now });

@Authorized()
@Resolver()
export class GrievanceResolver {
  @InGroup('grievances')
  @Query(() => GrievancePage, { complexity: pageCost(), description: 'Grievances, newest first (customers: their own).' })
  async grievances(@Args(() => GrievanceListArgs) args: GrievanceListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<GrievanceRow>> {
    const { page, limit, sort, ...filter } = args;
    const found = await services.grievances.list(ctx, filter, { page, limit, sort });
    return toPage({ ...found, items: found.items.map(rowOfRead) });
  }

  @InGroup('grievances')
  @Query(() => Grievance, { complexity: COST.record, description: 'One grievance (customers: their own).' })
  async grievance(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<GrievanceRow> {
    return rowOfRead(await services.grievances.get(ctx, id));
  }

  @InGroup('grievances')
  @Query(() => GrievancePhotoLink, { complexity: COST.record, description: 'A fresh pre-signed link to a photo of a grievance (15 minutes).' })
  async grievancePhotoLink(
    @Arg('grievanceId', () => Int) grievanceId: number,
    @Arg('photoId', () => Int) photoId: number,
    @Ctx() { ctx, services, requestBaseUrl }: GraphqlContext,
  ): Promise<GrievancePhotoLink> {
    const { photo, link } = await services.grievances.photoLink(ctx, grievanceId, photoId, requestBaseUrl);
    return { photoId: photo.id, url: link.url, expiresAt: link.expiresAt };
  }

  @InGroup('grievances')
  @Mutation(() => Grievance, { complexity: COST.write, description: 'Raises a grievance: a customer for themselves, staff and keys for a customer.' })
  async raiseGrievance(@Arg('input', () => RaiseGrievanceInput) input: RaiseGrievanceInput, @Ctx() { ctx, services }: GraphqlContext): Promise<GrievanceRow> {
    return rowOfRead(await services.grievances.raise(ctx, input));
  }

  @InGroup('grievances')
  @Mutation(() => Grievance, { complexity: COST.write, description: 'Staff assign a grievance to an admin or employee (null: unassign).' })
  async assignGrievance(
    @Arg('id', () => Int) id: number,
    @Arg('assigneeUserId', () => Int, { nullable: true }) assigneeUserId: number | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<GrievanceRow> {
    return rowOfRead(await services.grievances.assign(ctx, id, assigneeUserId ?? null));
  }

  @InGroup('grievances')
  @Mutation(() => Grievance, {
    complexity: COST.write,
    description: 'Moves a grievance (409 naming its state when not allowed): staff do all; a customer may close or reopen their own; reopen within 7 days. `resolve` needs its input.',
  })
  async transitionGrievance(
    @Arg('id', () => Int) id: number,
    @Arg('action', () => GrievanceActionEnum) action: GrievanceActionEnum,
    @Arg('resolve', () => ResolveGrievanceInput, { nullable: true }) resolve: ResolveGrievanceInput | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<GrievanceRow> {
    return rowOfRead(await services.grievances.transition(ctx, id, action, resolve ?? undefined));
  }
}

@Resolver(() => Grievance)
export class GrievanceFieldsResolver {
  @FieldResolver(() => Int, { complexity: COST.property, description: 'The distributor or retailer.' })
  customerId(@Root() g: Pick<Row<Grievance>, 'customer'>): number {
    return g.customer;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'Who raised it (null: an API key).' })
  raisedByUserId(@Root() g: Pick<Row<Grievance>, 'raisedBy'>): number | null {
    return g.raisedBy;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property })
  orderId(@Root() g: Pick<Row<Grievance>, 'order'>): number | null {
    return g.order;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property })
  assigneeUserId(@Root() g: Pick<Row<Grievance>, 'assignee'>): number | null {
    return g.assignee;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The credit note the resolution posted.' })
  creditNoteEntryId(@Root() g: Pick<Row<Grievance>, 'creditNote'>): number | null {
    return g.creditNote;
  }

  @FieldResolver(() => Int, { nullable: true, complexity: COST.property, description: 'The FOC replacement request the resolution submitted.' })
  focRequestId(@Root() g: Pick<Row<Grievance>, 'focRequest'>): number | null {
    return g.focRequest;
  }

  @FieldResolver(() => Boolean, { complexity: COST.property, description: 'Acknowledged after ackDueAt, or still not and it has passed.' })
  ackBreached(@Root() g: GrievanceRow): boolean {
    return breachesOf(g, g.now ?? new Date()).ackBreached;
  }

  @FieldResolver(() => Boolean, { complexity: COST.property, description: 'Resolved after resolveDueAt, or still not and it has passed.' })
  resolveBreached(@Root() g: GrievanceRow): boolean {
    return breachesOf(g, g.now ?? new Date()).resolveBreached;
  }

  @FieldResolver(() => Boolean, { complexity: COST.property, description: 'Either deadline breached.' })
  breached(@Root() g: GrievanceRow): boolean {
    return breachesOf(g, g.now ?? new Date()).breached;
  }

  @FieldResolver(() => [GrievancePhoto], { complexity: listCost(COST.property, 10), description: 'Its photos (bytes through grievancePhotoLink).' })
  photos(@Root() g: Partial<GrievanceRow>): PhotoRow[] {
    return g.photos ?? [];
  }
}

@Resolver(() => GrievancePhoto)
export class GrievancePhotoFieldsResolver {
  @FieldResolver(() => Int, { complexity: COST.property })
  grievanceId(@Root() p: Pick<PhotoRow, 'grievance'>): number {
    return p.grievance;
  }
}
