import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { ActiveStatus } from '../../db/active-status';
import { SortedPageArgs } from '../../graphql/sort.types';
import { MASTER_SORT } from './master.service';

@ArgsType()
export class MasterListArgs extends SortedPageArgs(MASTER_SORT) {
  @Field({ nullable: true, description: 'Matches the name' })
  search?: string;

  @Field(() => ActiveStatus, { nullable: true })
  status?: ActiveStatus;
}

@InputType({ description: 'A town; on update, omitted fields stay as they are.' })
export class TownInput {
  @Field({ nullable: true })
  name?: string;

  @Field(() => ActiveStatus, { nullable: true })
  status?: ActiveStatus;
}

@InputType({ description: 'A production unit; on update, omitted fields stay as they are.' })
export class ProductionUnitInput extends TownInput {}

@InputType({ description: 'A no-sale reason (why a visit ended without an order); on update, omitted fields stay as they are.' })
export class NoSaleReasonInput extends TownInput {}

@InputType({ description: 'A route in a town; townId is required on create.' })
export class RouteInput extends TownInput {
  @Field(() => Int, { nullable: true })
  townId?: number;
}

@InputType({ description: 'A product class and the unit its quantities are counted in.' })
export class ProductClassInput extends TownInput {
  @Field({ nullable: true, description: 'e.g. litre, kg, piece (default piece)' })
  unit?: string;
}

@InputType({ description: 'An outlet on a route; townId, routeId and phone are required on create.' })
export class OutletInput extends TownInput {
  @Field(() => Int, { nullable: true })
  townId?: number;

  @Field(() => Int, { nullable: true, description: 'A route of the town.' })
  routeId?: number;

  @Field({ nullable: true })
  phone?: string;
}

@InputType({ description: 'A role of the workspace.' })
export class RoleInput extends TownInput {
  @Field({ nullable: true })
  description?: string;
}

@InputType({ description: 'A crate type (a returnable container) and what one is worth; on update, omitted fields stay as they are.' })
export class CrateTypeInput extends TownInput {
  @Field(() => Float, { nullable: true, description: 'What one crate is worth, >= 0 with at most two decimals (default 0)' })
  depositValue?: number;
}
