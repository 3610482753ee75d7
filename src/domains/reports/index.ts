import { defineDomain } from '../domain-module';
import { beatProductivityExport } from './beat-productivity.export';
import { BeatProductivityService } from './beat-productivity.service';
import { ReportsResolver } from './reports.resolver';
import { SalesReportService } from './sales-report.service';

declare module '../domain-module' {
  interface Services {
    salesReport: SalesReportService;
    beatProductivity: BeatProductivityService;
  }
}

/**
 * Reports: read-only aggregates under /reports (the `reports` route group and API-key scope; every
 * request spends the report budget, REST by its group, GraphQL by `@Budget('reports')`). Each report
 * is its own service, statement and types beside the shared range and access rules
 * (report-range.ts, report-access.ts).
 */
export const reportsDomain = defineDomain({
  name: 'reports',
  services: () => ({ salesReport: new SalesReportService(), beatProductivity: new BeatProductivityService() }),
  resolvers: [ReportsResolver],
  routeGroups: { reports: 'scoped' },
  // GET /exports/beat-productivity: the exports group and budget, as every export.
  exports: [beatProductivityExport],
});
