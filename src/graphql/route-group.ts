import { Extensions } from 'type-graphql';
import type { RouteGroup } from '../domains/api-keys/route-groups';

/** Name of the field extension that holds a root field's route group. */
export const ROUTE_GROUP_EXTENSION = 'routeGroup';

/**
 * Puts a query or mutation in a route group, as its REST path would be: API key scopes confine
 * keys to groups, and keys are refused on some groups. A root field without a group is refused
 * to every key.
 */
export const InGroup = (group: RouteGroup) => Extensions({ [ROUTE_GROUP_EXTENSION]: group });
