import { defineDomain } from '../domain-module';
import { LEAVE_EVENTS } from './leave-events';
import { Leave } from './leave.entity';
import { LeaveFieldsResolver, LeaveResolver } from './leave.resolver';
import { LeaveService } from './leave.service';

declare module '../domain-module' {
  interface Services {
    leaves: LeaveService;
  }
}

/** Staff leave: apply, approve or reject (an admin), cancel; approved days for other domains (leave-days.ts). */
export const leavesDomain = defineDomain({
  name: 'leaves',
  entities: [Leave],
  services: ({ services }) => ({ leaves: new LeaveService(services.webhookEvents) }),
  resolvers: [LeaveResolver, LeaveFieldsResolver],
  routeGroups: { leaves: 'scoped' },
  webhookEvents: LEAVE_EVENTS,
});
