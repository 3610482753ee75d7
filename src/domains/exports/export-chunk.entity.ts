import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { TenantEntity } from '../../db/tenant.entity';
import { ExportJob } from './export-job.entity';

/** One piece (up to 1 MiB) of an export job's file, in order of `seq`. */
@Entity({ tableName: 'export_chunk' })
@Unique({ properties: ['organizationId', 'exportJob', 'seq'] })
export class ExportChunk extends TenantEntity {
  @ManyToOne(() => ExportJob, { fieldName: 'export_job_id', deleteRule: 'cascade' })
  exportJob!: ExportJob;

  @Property({ type: 'integer' })
  seq!: number;

  @Property({ type: 'blob' })
  data!: Buffer;
}
