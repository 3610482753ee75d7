import { domainEntities } from '../domains';
import { BaseEntity } from './base.entity';
import { TenantCounter } from './tenant-counter.entity';
import { TenantEntity } from './tenant.entity';

/** Every entity class: the shared bases and counters, then each domain's (src/domains/index.ts). */
export const ENTITIES = [BaseEntity, TenantEntity, TenantCounter, ...domainEntities()];
