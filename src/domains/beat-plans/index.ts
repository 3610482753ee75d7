import { defineDomain } from '../domain-module';
import { BeatPlan, BeatPlanDay, BeatPlanDayOutlet, BeatPlanOutlet } from './beat-plan.entity';
import { BeatPlanResolver } from './beat-plan.resolver';
import { BeatPlanService } from './beat-plan.service';

declare module '../domain-module' {
  interface Services {
    beatPlans: BeatPlanService;
  }
}

/** Beat plan templates (employee × route × weekday) and their frozen day instances. */
export const beatPlansDomain = defineDomain({
  name: 'beat-plans',
  entities: [BeatPlan, BeatPlanOutlet, BeatPlanDay, BeatPlanDayOutlet],
  services: () => ({ beatPlans: new BeatPlanService() }),
  resolvers: [BeatPlanResolver],
  routeGroups: { beat_plans: 'scoped' },
  // Hourly at :05: freezes each workspace's today once its local day has started.
  cron: [{ task: 'materialise_beat_plan_days', match: '5 * * * *', identifier: 'materialise_beat_plan_days' }],
});
