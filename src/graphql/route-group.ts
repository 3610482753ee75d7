import { Extensions } from 'type-graphql';

/** Name of the field extension that holds a root field's route group. */
export const ROUTE_GROUP_EXTENSION = 'routeGroup';
/** Name of the field extension of a mutation that API keys may use with `read` (it changes no data). */
export const KEY_READS_EXTENSION = 'keyReads';

/**
 * Puts a query or mutation in a route group, as its REST path would be: API key scopes confine
 * keys to groups, and keys are refused on some groups. A root field without a group is refused
 * to every key. The group is one a domain declares (DomainModule.routeGroups; tested).
 */
export const InGroup = (group: string, options: { readsOnly?: boolean } = {}) =>
  Extensions({ [ROUTE_GROUP_EXTENSION]: group, ...(options.readsOnly ? { [KEY_READS_EXTENSION]: true } : {}) });
