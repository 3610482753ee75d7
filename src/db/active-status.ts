import { registerEnumType } from 'type-graphql';

/** status of users, products, variants and master records: 1 active, 0 inactive. */
export enum ActiveStatus {
  INACTIVE = 0,
  ACTIVE = 1,
}
registerEnumType(ActiveStatus, { name: 'ActiveStatus', description: '1 active, 0 inactive' });

/** Every active status code, as the wire takes it: 0, 1. */
export const ACTIVE_STATUSES = Object.values(ActiveStatus).filter((v): v is ActiveStatus => typeof v === 'number');
