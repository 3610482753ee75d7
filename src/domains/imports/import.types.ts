import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { SortedPageArgs } from '../../graphql/sort.types';
import { ImportJob, ImportStatus } from './import-job.entity';
import { IMPORT_SORT } from './import.service';

@ArgsType()
export class ImportListArgs extends SortedPageArgs(IMPORT_SORT) {
  @Field(() => String, { nullable: true, description: 'product-variants, schemes, …' })
  kind?: string | null;

  @Field(() => ImportStatus, { nullable: true })
  status?: ImportStatus | null;

  @Field(() => String, { nullable: true, description: 'Matches the file name' })
  search?: string | null;
}

@InputType()
export class ImportFileInput {
  @Field({ description: 'product-variants, schemes, … (the REST path POST /imports/{kind})' })
  kind!: string;

  @Field({ description: 'Ends in .csv or .xlsx' })
  fileName!: string;

  @Field({ description: "The file's bytes in base64. GraphQL requests are capped at 1 MB: larger files go as multipart to POST /imports/{kind} (10 MB)." })
  contentBase64!: string;

  @Field({ nullable: true, description: 'Check and count without writing (default false)' })
  dryRun?: boolean;

  @Field({ nullable: true, description: 'Write the valid rows even when some fail (default false: all or nothing)' })
  partial?: boolean;

  @Field({ nullable: true, description: 'Run as a job whatever the size (default: files over 5,000 rows only)' })
  async?: boolean;
}

@ObjectType({ simpleResolvers: true })
export class ImportFailedRowRead {
  @Field(() => Int, { description: 'The row in the spreadsheet: the header is row 1.' })
  rowNumber!: number;

  @Field({ description: "The column, or '' for the row as a whole." })
  field!: string;

  @Field()
  message!: string;
}

@ObjectType({ simpleResolvers: true })
export class ImportResult {
  @Field(() => ImportJob)
  import!: ImportJob;

  @Field(() => [ImportFailedRowRead], { description: 'The first 100 failures; GET /imports/{id}/failed-rows.csv has every failed row with its values.' })
  failedRows!: ImportFailedRowRead[];
}
