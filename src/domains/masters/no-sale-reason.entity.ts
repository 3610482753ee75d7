import { Entity, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { NamedRecord } from './named-record.entity';

/**
 * Why a visit ended without an order ("shop closed", "stock sufficient"): a visit checked out
 * with outcome no_sale names an active one. Deactivating one is never blocked: an inactive
 * reason is only refused for new check-outs, and the visits that named it keep it.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'no_sale_reason' })
@Unique({ properties: ['organizationId', 'name'] })
export class NoSaleReason extends NamedRecord {}
