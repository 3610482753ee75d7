import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TenantEntity } from '../../db/tenant.entity';
import { ApiKey } from '../api-keys/api-key.entity';
import { User } from '../users/user.entity';

/** Where an import is: pending (queued) → running → succeeded, failed (rows failed: nothing written) or error. */
export enum ImportStatus {
  PENDING = 'pending',
  RUNNING = 'running',
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
  PARTIAL = 'partial',
  ERROR = 'error',
}
registerEnumType(ImportStatus, {
  name: 'ImportStatus',
  description: 'pending (queued for the job worker), running, succeeded (written, or a dry run whose rows are all valid), failed (some rows failed: nothing was written; a dry run: the rows would fail), partial (partial=true: the valid rows were written, the failed ones were not), error (the file could not be read or the run broke; nothing was written)',
});

/** The file formats an import reads. */
export enum ImportFormat {
  CSV = 'csv',
  XLSX = 'xlsx',
}
registerEnumType(ImportFormat, { name: 'ImportFormat' });

/** One upload of a file of one import kind: its counts, and (until it has run) its file in `import_chunk`. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'import_job' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class ImportJob extends TenantEntity<
  'status' | 'dryRun' | 'partial' | 'totalRows' | 'processedRows' | 'validRows' | 'failedRows' | 'inserted' | 'updated' | 'unchanged' | 'error' | 'headers' | 'createdByUserId' | 'createdByApiKeyId' | 'startedAt' | 'finishedAt'
> {
  @Field({ description: 'product-variants, schemes, rate-list, … (GET /imports/templates/{kind})' })
  @Property({ length: 40 })
  kind!: string;

  @Field(() => ImportStatus)
  @Enum({ items: () => ImportStatus })
  status: ImportStatus = ImportStatus.PENDING;

  @Field({ description: 'Checked and counted (insert/update/unchanged) without writing.' })
  @Property({ type: 'boolean' })
  dryRun: boolean = false;

  @Field({ description: 'Writes the valid rows even when some fail (default false: all or nothing).' })
  @Property({ type: 'boolean' })
  partial: boolean = false;

  @Field()
  @Property({ length: 255 })
  fileName!: string;

  @Field(() => ImportFormat)
  @Enum({ items: () => ImportFormat })
  fileFormat!: ImportFormat;

  @Field({ description: 'SHA-256 of the uploaded file, hex.' })
  @Property({ length: 64 })
  fileSha256!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  fileBytes!: number;

  /** The file's header row as written (the failed rows' CSV repeats it). */
  @Property({ type: 'json' })
  headers: string[] = [];

  @Field(() => Int, { description: 'Data rows in the file (empty rows are skipped).' })
  @Property({ type: 'integer' })
  totalRows: number = 0;

  @Field(() => Int, { description: 'Rows read and checked so far (the progress of a running import).' })
  @Property({ type: 'integer' })
  processedRows: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  validRows: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  failedRows: number = 0;

  @Field(() => Int, { description: 'Records created (a dry run: that would be).' })
  @Property({ type: 'integer' })
  inserted: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  updated: number = 0;

  @Field(() => Int, { description: 'Rows that matched the stored record already (a re-upload).' })
  @Property({ type: 'integer' })
  unchanged: number = 0;

  @Field(() => String, { nullable: true, description: 'Why the import failed or broke, in words.' })
  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Field(() => Int, { nullable: true })
  @ManyToOne(() => User, { mapToPk: true, nullable: true, fieldName: 'created_by_user_id' })
  createdByUserId: number | null = null;

  @Field(() => Int, { nullable: true })
  @ManyToOne(() => ApiKey, { mapToPk: true, nullable: true, fieldName: 'created_by_api_key_id' })
  createdByApiKeyId: number | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  startedAt: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;
}

/** One piece (up to 1 MiB) of an uploaded file waiting for its job, in order of `seq`; deleted once the job has run. */
@Entity({ tableName: 'import_chunk' })
@Unique({ properties: ['organizationId', 'importJob', 'seq'] })
export class ImportChunk extends TenantEntity {
  @ManyToOne(() => ImportJob, { fieldName: 'import_job_id', deleteRule: 'cascade' })
  importJob!: ImportJob;

  @Property({ type: 'integer' })
  seq!: number;

  @Property({ type: 'blob' })
  data!: Buffer;
}

/** A failure of one row of an import: its row number, the column, the message and the row's values as uploaded. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'import_failed_row' })
@Index({ properties: ['organizationId', 'importJob', 'rowNumber'] })
export class ImportFailedRow extends TenantEntity {
  @ManyToOne(() => ImportJob, { fieldName: 'import_job_id', deleteRule: 'cascade' })
  importJob!: ImportJob;

  @Field(() => Int, { description: 'The row in the spreadsheet: the header is row 1.' })
  @Property({ type: 'integer' })
  rowNumber!: number;

  @Field({ description: "The column (a template header), or '' for the row as a whole." })
  @Property({ length: 100 })
  field!: string;

  @Field()
  @Property({ type: 'text' })
  message!: string;

  /** The row as uploaded, by the file's headers. */
  @Property({ type: 'json' })
  values!: Record<string, string>;
}
