import type { ServiceDeps } from '../domain-module';
import { systemResolver } from '../webhooks/target-guard';
import { DownloadLinks } from './download-links';
import { ExportCatalog } from './export-catalog';
import { ExportJobService } from './export-jobs';
import { ExportService } from './export.service';
import { ExportWriter } from './export-writer';
import { LogoFetcher } from './pdf/logo-fetch';
import { PdfRenderer } from './pdf/pdf-renderer';

/**
 * The exports (of the kinds the domains declare) and their jobs, for the API and the job worker alike. Logos are fetched under the
 * webhooks' address rules (and their WEBHOOK_ALLOWED_PRIVATE_HOSTS); download links are under
 * PUBLIC_API_URL when it is set.
 */
export function exportJobServiceOf(deps: Pick<ServiceDeps, 'config' | 'secrets' | 'resolveHost' | 'catalog'>): ExportJobService {
  const logos = new LogoFetcher(deps.resolveHost ?? systemResolver, deps.config.webhook.allowedPrivateHosts);
  return new ExportJobService(new ExportService(new ExportWriter(new PdfRenderer(), logos, new ExportCatalog(deps.catalog.exportSources))), new DownloadLinks(deps.secrets.deriveKey('export-download'), deps.config.publicApiUrl));
}
