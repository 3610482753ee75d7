import type { ClassType } from 'type-graphql';
import { Field, ObjectType } from 'type-graphql';
import type { Paginated } from '../lists/page-request';
import { PageInfo } from './pagination.types';

/** A page of a list, as GraphQL shows it. */
export interface Page<T> {
  nodes: T[];
  pageInfo: PageInfo;
}

/** Declares the GraphQL type `<name>Page { nodes: [T!]!, pageInfo: PageInfo! }`. */
export function PageOf<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(`${name}Page`, { simpleResolvers: true })
  class PageType implements Page<T> {
    @Field(() => [item])
    nodes!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;
  }
  return PageType;
}

/** Shapes a service page for GraphQL. */
export function toPage<T>(page: Paginated<T>): Page<T> {
  return { nodes: page.items, pageInfo: PageInfo.of(page) };
}
