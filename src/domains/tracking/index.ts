import { defineDomain } from '../domain-module';
import { Position } from './position.entity';
import { TrackingResolver } from './tracking.resolver';
import { TrackingService } from './tracking.service';

declare module '../domain-module' {
  interface Services {
    tracking: TrackingService;
  }
}

/** Live tracking: duty-bounded positions of field staff, the live map, the day's trail. */
export const trackingDomain = defineDomain({
  name: 'tracking',
  entities: [Position],
  services: () => ({ tracking: new TrackingService() }),
  resolvers: [TrackingResolver],
  routeGroups: { tracking: 'scoped' },
  // Daily at 02:17 UTC: positions past each workspace's retention (delete_old_positions).
  cron: [{ task: 'delete_old_positions', match: '17 2 * * *', identifier: 'delete_old_positions' }],
});
