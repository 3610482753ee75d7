import { defineDomain } from '../domain-module';
import { PhotoLinks, PhotoStore } from './grievance-photos';
import { Grievance, GrievancePhoto } from './grievance.entity';
import { GrievanceFieldsResolver, GrievancePhotoFieldsResolver, GrievanceResolver } from './grievance.resolver';
import { GrievanceService } from './grievance.service';

declare module '../domain-module' {
  interface Services {
    grievances: GrievanceService;
  }
}

/** Customers' grievances with SLA clocks, photos, and resolutions that may post a credit note or submit an FOC replacement. */
export const grievancesDomain = defineDomain({
  name: 'grievances',
  entities: [Grievance, GrievancePhoto],
  services: ({ services, config, secrets }) => ({
    grievances: new GrievanceService(services.ledger, services.foc, new PhotoStore(config.uploadDir), new PhotoLinks(secrets.deriveKey('grievance-photo'), config.publicApiUrl)),
  }),
  resolvers: [GrievanceResolver, GrievanceFieldsResolver, GrievancePhotoFieldsResolver],
  routeGroups: { grievances: 'scoped' },
  cron: [{ task: 'warn_grievance_breaches', match: '*/15 * * * *', identifier: 'warn_grievance_breaches' }],
});
