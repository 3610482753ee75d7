import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/core';
import { registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { User } from '../users/user.entity';
import { ExportFormat } from './export-formats';
import type { ExportFilters } from './export-source';

/** Where an export job is: queued → running → ready (or failed). */
export enum ExportStatus {
  QUEUED = 'queued',
  RUNNING = 'running',
  READY = 'ready',
  FAILED = 'failed',
}
registerEnumType(ExportStatus, { name: 'ExportStatus' });

/** An export run by the job worker; its file is kept in `export_chunk` until `expiresAt`. */
@Entity({ tableName: 'export_job' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class ExportJob extends TenantEntity<'status' | 'rowsDone' | 'rowsTotal' | 'byteSize' | 'error' | 'startedAt' | 'finishedAt' | 'expiresAt' | 'requestedByUserId' | 'requestedByApiKeyId'> {
  /** One of the kinds the domains declare (ExportCatalog); a text, so that a domain adds one without a migration. */
  @Property({ type: 'text' })
  kind!: string;

  @Enum({ items: () => ExportFormat })
  format!: ExportFormat;

  @Property({ type: 'json' })
  filters!: ExportFilters;

  @Enum({ items: () => ExportStatus })
  status: ExportStatus = ExportStatus.QUEUED;

  @Property({ type: 'integer' })
  rowsDone: number = 0;

  @Property({ type: 'integer', nullable: true })
  rowsTotal: number | null = null;

  @Property({ length: 100 })
  fileName!: string;

  @Property({ type: 'integer', nullable: true })
  byteSize: number | null = null;

  /** Why it failed, in words for the user. */
  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @ManyToOne(() => User, { mapToPk: true, nullable: true, fieldName: 'requested_by_user_id' })
  requestedByUserId: number | null = null;

  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'requested_by_api_key_id' })
  requestedByApiKeyId: number | null = null;

  @Property({ type: 'datetime', nullable: true })
  startedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;

  /** When the file is deleted (set when it is ready). */
  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;
}
