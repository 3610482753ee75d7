import { defineDomain } from '../domain-module';
import { exportJobServiceOf } from './export-job-service-of';
import { ExportChunk } from './export-chunk.entity';
import { ExportJob } from './export-job.entity';
import type { ExportJobService } from './export-jobs';
import { exportResolvers } from './export.resolver';
import type { ExportService } from './export.service';

declare module '../domain-module' {
  interface Services {
    exports: ExportService;
    exportJobs: ExportJobService;
  }
}

/** XLSX and PDF exports of the kinds the domains declare, streamed at once or written by a job to download later. */
export const exportsDomain = defineDomain({
  name: 'exports',
  entities: [ExportJob, ExportChunk],
  services: (deps) => {
    const exportJobs = exportJobServiceOf(deps);
    return { exports: exportJobs.exports, exportJobs };
  },
  // Defined from every domain's export kinds (the ExportKind enum).
  resolvers: (catalog) => exportResolvers(catalog),
  routeGroups: { exports: 'scoped' },
  // Hourly at minute 23: export files past their 24-hour retention.
  cron: [{ task: 'delete_expired_exports', match: '23 * * * *', identifier: 'delete_expired_exports' }],
});
