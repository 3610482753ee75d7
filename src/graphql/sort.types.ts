import { ArgsType, Field, InputType, registerEnumType } from 'type-graphql';
import { sortFieldsOf, type Sortable, type SortDirection as Direction, type SortKey } from '../lists/sort';
import { PageArgs } from './pagination.types';

/** Ascending or descending, as REST's `sort` writes with no sign or a leading `-`. */
export enum SortDirection {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(SortDirection, { name: 'SortDirection' });

/** `created_at` → `CREATED_AT`. */
const enumName = (field: string) => field.toUpperCase();

/**
 * Page arguments with `sort: [<List>Sort!]`, one key per item (`{field: ORDER_DATE, direction:
 * DESC}`), as GraphQL APIs order connections; the fields are the list's `Sortable`, the same as
 * REST's `sort` names, and `id` breaks ties. The list's default applies when `sort` is not given.
 */
export function SortedPageArgs(spec: Sortable<unknown>) {
  const fields = Object.fromEntries(sortFieldsOf(spec).map((field) => [enumName(field), field]));
  registerEnumType(fields, { name: `${spec.name}SortField`, description: `What the ${spec.name.toLowerCase()} list may be sorted by` });

  @InputType(`${spec.name}Sort`, { description: 'One key of the order; later keys break ties of earlier ones' })
  class SortInput implements SortKey {
    @Field(() => fields)
    field!: string;

    // Required, as GitHub's `orderBy` has it. (A default here would also meet a graphql-jit bug:
    // an input field's default is not applied to a variable's object, and execution fails.)
    @Field(() => SortDirection)
    direction!: Direction;
  }

  @ArgsType()
  class SortedArgs extends PageArgs {
    @Field(() => [SortInput], { nullable: true, description: `The order of the list (default: \`${spec.default}\`)` })
    sort?: SortKey[];
  }
  return SortedArgs;
}
