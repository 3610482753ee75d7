import { defineDomain } from '../domain-module';
import { ImportChunk, ImportFailedRow, ImportJob } from './import-job.entity';
import { ImportResolver } from './import.resolver';
import { ImportService } from './import.service';

declare module '../domain-module' {
  interface Services {
    imports: ImportService;
  }
}

/** Imports of CSV and XLSX files (product variants, schemes, … as import-kinds.ts lists), checked first, written all or nothing. */
export const importsDomain = defineDomain({
  name: 'imports',
  entities: [ImportJob, ImportChunk, ImportFailedRow],
  services: () => ({ imports: new ImportService() }),
  resolvers: [ImportResolver],
  routeGroups: { imports: 'scoped' },
});
