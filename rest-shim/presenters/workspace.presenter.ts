import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { Organization } from '../../src/domains/workspace/organization.entity';
import type { WorkspaceConfig } from '../../src/domains/workspace/workspace-config.entity';
import { Nullable, Timestamp } from '../schemas';

/** The Workspace resource. */
export const WorkspaceBody = Type.Object({
  workspace_id: Type.String(),
  slug: Type.String(),
  display_name: Type.String(),
  domain: Nullable(Type.String()),
  plan: Type.String({ description: 'free, starter, pro or professional' }),
  status: Type.Integer({ description: '0 suspended, 1 active, 2 trial' }),
  max_users: Type.Integer(),
  trial_ends_at: Nullable(Timestamp),
});

/** The workspace configuration resource. */
export const WorkspaceConfigBody = Type.Object({
  id: Type.Integer(),
  organization_id: Type.Integer(),
  logo: Nullable(Type.String()),
  primary_color: Type.String(),
  secondary_color: Type.String(),
  org_footer_name: Type.String(),
  org_address: Type.String(),
  gstin: Type.String(),
  fssai: Type.String(),
  contact_number: Type.String(),
  order_timing: Type.String(),
  page_limit: Type.Integer(),
  chatbot_enabled: Type.Boolean(),
  time_zone: Type.String({ description: 'IANA time zone (extension)' }),
  position_retention_days: Type.Integer({ description: 'Days live-tracking positions are kept, 1–3650 (extension)' }),
  visit_radius_m: Type.Integer({ description: 'Metres from an outlet’s tag within which a visit is geo-verified, 10–5000 (extension)' }),
  visit_min_dwell_minutes: Type.Integer({ description: 'Minutes a visit must last to be geo-verified, 0–240 (extension)' }),
  grievance_ack_hours: Type.Integer({ description: 'Hours a new grievance must be acknowledged within, 1–720 (extension)' }),
  grievance_resolve_days: Type.Integer({ description: 'Days a new grievance must be resolved within, 1–365 (extension)' }),
});

/** The workspace as the Workspace resource shows it. */
export function presentWorkspace(o: Row<Organization>) {
  return {
    workspace_id: o.workspaceId,
    slug: o.slug,
    display_name: o.displayName,
    domain: o.domain,
    plan: o.plan,
    status: o.status,
    max_users: o.maxUsers,
    trial_ends_at: o.trialEndsAt,
  };
}

/** The workspace's configuration resource. */
export function presentWorkspaceConfig(c: Row<WorkspaceConfig>) {
  return {
    id: c.id,
    organization_id: c.organizationId,
    logo: c.logo,
    primary_color: c.primaryColor,
    secondary_color: c.secondaryColor,
    org_footer_name: c.orgFooterName,
    org_address: c.orgAddress,
    gstin: c.gstin,
    fssai: c.fssai,
    contact_number: c.contactNumber,
    order_timing: c.orderTiming,
    page_limit: c.pageLimit,
    chatbot_enabled: c.chatbotEnabled,
    time_zone: c.timeZone,
    position_retention_days: c.positionRetentionDays,
    visit_radius_m: c.visitRadiusM,
    visit_min_dwell_minutes: c.visitMinDwellMinutes,
    grievance_ack_hours: c.grievanceAckHours,
    grievance_resolve_days: c.grievanceResolveDays,
  };
}
