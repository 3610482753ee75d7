import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { MAX_PAGE, type Paginated } from '../lists/page-request';

/** Page arguments of every list: page from 1, limit 1 to 100 (default 20). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: `Page number, from 1 to ${MAX_PAGE} (default 1)` })
  page?: number;

  @Field(() => Int, { nullable: true, description: 'Page size, 1 to 100 (default 20)' })
  limit?: number;
}

/** Where a page sits in its list. */
@ObjectType({ simpleResolvers: true })
export class PageInfo {
  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  page!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  totalPages!: number;

  static of(page: Paginated<unknown>): PageInfo {
    return Object.assign(new PageInfo(), {
      total: page.total,
      page: page.page,
      limit: page.limit,
      totalPages: Math.ceil(page.total / page.limit),
    });
  }
}
