import type { CronItem } from 'graphile-worker';
import { apiKeysDomain } from './api-keys';
import { approvalsDomain } from './approvals';
import { attendanceDomain } from './attendance';
import { beatPlansDomain } from './beat-plans';
import { cratesDomain } from './crates';
import { authDomain } from './auth';
import { dashboardDomain } from './dashboard';
import type { DomainCatalog, DomainModule, LoaderFactory } from './domain-module';
import { exportsDomain } from './exports';
import { focDomain } from './foc';
import { portalDomain } from './portal';
import { grievancesDomain } from './grievances';
import { importsDomain } from './imports';
import { leavesDomain } from './leaves';
import { ledgerDomain } from './ledger';
import { schemesDomain } from './schemes';
import { secondarySalesDomain } from './secondary-sales';
import { mastersDomain } from './masters';
import { notificationsDomain } from './notifications';
import { ordersDomain } from './orders';
import { salesPlanDomain } from './sales-plan';
import { paymentsDomain } from './payments';
import { productsDomain } from './products';
import { trackingDomain } from './tracking';
import { reportsDomain } from './reports';
import { usersDomain } from './users';
import { visitsDomain } from './visits';
import { webhooksDomain } from './webhooks';
import { workspaceDomain } from './workspace';

/**
 * Every domain of the service. Adding one is a line here (and its route plugin's line in
 * rest-shim/index.ts). The order is the order their services are built in (a domain may use the
 * services of those above it), and the order of the scope tokens and webhook events in answers.
 */
export const DOMAINS: readonly DomainModule[] = [
  authDomain,
  webhooksDomain,
  apiKeysDomain,
  ordersDomain,
  usersDomain,
  productsDomain,
  mastersDomain,
  dashboardDomain,
  exportsDomain,
  workspaceDomain,
  attendanceDomain,
  paymentsDomain,
  trackingDomain,
  leavesDomain,
  salesPlanDomain,
  visitsDomain,
  beatPlansDomain,
  reportsDomain,
  ledgerDomain,
  cratesDomain,
  approvalsDomain,
  focDomain,
  schemesDomain,
  importsDomain,
  secondarySalesDomain,
  portalDomain,
  grievancesDomain,
  notificationsDomain,
];

/**
 * Route groups the interface names whose domains are not built yet, with the API key access it
 * fixes for them; a domain that comes to serve one declares it again.
 */
const NAMED_GROUPS: Readonly<Record<string, 'scoped' | 'refused'>> = {
  billing: 'refused',
  platform: 'refused',
  super_admin: 'refused',
  driver_app: 'refused',
  support: 'refused',
};

/** What the domains declare, gathered: the route groups by key access, the webhook events and the export kinds. */
export function catalogOf(domains: readonly DomainModule[]): DomainCatalog {
  const groups = new Map<string, 'scoped' | 'refused'>();
  for (const [group, access] of [...domains.flatMap((d) => Object.entries(d.routeGroups ?? {})), ...Object.entries(NAMED_GROUPS)]) {
    const declared = groups.get(group);
    if (declared && declared !== access) throw new Error(`route group ${group} is declared both ${declared} and ${access}`);
    groups.set(group, access);
  }
  const withAccess = (access: 'scoped' | 'refused') => [...groups].filter(([, a]) => a === access).map(([group]) => group);
  return {
    scopedGroups: withAccess('scoped'),
    refusedGroups: withAccess('refused'),
    webhookEvents: [...new Set(domains.flatMap((d) => d.webhookEvents ?? []))],
    exportSources: domains.flatMap((d) => d.exports ?? []),
  };
}

let catalog: DomainCatalog | undefined;

/** What the service's domains declare, gathered once. */
export function domainCatalog(): DomainCatalog {
  catalog ??= catalogOf(DOMAINS);
  return catalog;
}

/** Every entity class of the domains. */
export const domainEntities = () => DOMAINS.flatMap((d) => d.entities ?? []);

let resolvers: Function[] | undefined;

/** Every resolver class of the domains, defined once. */
export function domainResolvers(): Function[] {
  resolvers ??= DOMAINS.flatMap((d) => (typeof d.resolvers === 'function' ? d.resolvers(domainCatalog()) : (d.resolvers ?? [])));
  return resolvers;
}

/** Every domain's loader factory. */
export const domainLoaders = (): LoaderFactory[] => DOMAINS.flatMap((d) => (d.loaders ? [d.loaders] : []));

/** Every domain's recurring tasks. */
export const domainCron = (): CronItem[] => DOMAINS.flatMap((d) => d.cron ?? []);
