import { ActiveStatus } from '../../db/active-status';
import { raw, type Sql } from '../../db/tenant-sql';

/** SQL: the endpoint `alias` takes deliveries (active and not deleted). */
export const liveEndpoint = (alias: string): Sql => raw(`${alias}.status = ${ActiveStatus.ACTIVE} and ${alias}.deleted_at is null`);
