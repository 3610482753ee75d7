import type { RequestContext } from '../../context/request-context';
import { findRows, rowOf, type Row } from '../../db/entity-rows';
import { ValidationError } from '../../errors/app-error';
import * as rules from '../../validation/rules';
import type { Organization } from './organization.entity';
import { organizationRow } from './organization-row';
import { WorkspaceConfig } from './workspace-config.entity';

/** Changes an admin may make to the workspace configuration; omitted fields stay as they are. */
export interface WorkspaceConfigInput {
  logo?: string | null;
  primaryColor?: string;
  secondaryColor?: string;
  orgFooterName?: string;
  orgAddress?: string;
  contactNumber?: string;
  gstin?: string;
  fssai?: string;
  orderTiming?: string;
  pageLimit?: number;
  chatbotEnabled?: boolean;
  timeZone?: string;
  positionRetentionDays?: number;
  visitRadiusM?: number;
  visitMinDwellMinutes?: number;
  grievanceAckHours?: number;
  grievanceResolveDays?: number;
}

const GSTIN = /^[0-9]{2}[A-Z0-9]{13}$/;
const FSSAI = /^[0-9]{14}$/;

/** The caller's workspace and its configuration. */
export class WorkspaceService {
  /** The caller's organization record. */
  async organization(ctx: RequestContext): Promise<Row<Organization>> {
    return organizationRow(ctx.em, ctx.organizationId);
  }

  /** The configuration of the caller's workspace (created with the workspace). */
  async config(ctx: RequestContext): Promise<Row<WorkspaceConfig>> {
    const [config] = await findRows(ctx.em, WorkspaceConfig, { organizationId: ctx.organizationId });
    if (!config) throw new Error(`Workspace ${ctx.organizationId} has no configuration`);
    return config;
  }

  /** The configuration together with the workspace it belongs to. */
  async overview(ctx: RequestContext): Promise<{ config: Row<WorkspaceConfig>; organization: Row<Organization> }> {
    const [config, organization] = await Promise.all([this.config(ctx), this.organization(ctx)]);
    return { config, organization };
  }

  /** Admin session only (API keys are refused). Validates every given field first, so a bad one changes nothing. */
  async updateConfig(ctx: RequestContext, input: WorkspaceConfigInput): Promise<Row<WorkspaceConfig>> {
    ctx.requireAdminSession();
    const changes: Partial<WorkspaceConfig> = {};
    if (input.logo !== undefined) changes.logo = input.logo === null || input.logo.trim() === '' ? null : rules.httpUrl('logo', input.logo);
    if (input.primaryColor != null) changes.primaryColor = rules.hexColour('primaryColor', input.primaryColor);
    if (input.secondaryColor != null) changes.secondaryColor = rules.hexColour('secondaryColor', input.secondaryColor);
    if (input.orgFooterName != null) changes.orgFooterName = rules.optionalText('orgFooterName', input.orgFooterName, 200);
    if (input.orgAddress != null) changes.orgAddress = rules.optionalText('orgAddress', input.orgAddress, 500);
    if (input.contactNumber != null) {
      changes.contactNumber = input.contactNumber.trim() === '' ? '' : rules.phone('contactNumber', input.contactNumber);
    }
    if (input.gstin != null) changes.gstin = this.code('gstin', input.gstin, GSTIN, 'a 15-character GSTIN');
    if (input.fssai != null) changes.fssai = this.code('fssai', input.fssai, FSSAI, 'a 14-digit FSSAI licence number');
    if (input.orderTiming != null) changes.orderTiming = rules.timeWindow('orderTiming', input.orderTiming);
    if (input.pageLimit != null) changes.pageLimit = this.pageLimit(input.pageLimit);
    if (input.chatbotEnabled != null) changes.chatbotEnabled = input.chatbotEnabled;
    if (input.timeZone != null) changes.timeZone = await this.timeZone(ctx, input.timeZone);
    if (input.positionRetentionDays != null) changes.positionRetentionDays = positionRetentionDays(input.positionRetentionDays);
    if (input.visitRadiusM != null) changes.visitRadiusM = integerIn('visitRadiusM', input.visitRadiusM, 10, 5000);
    if (input.visitMinDwellMinutes != null) changes.visitMinDwellMinutes = integerIn('visitMinDwellMinutes', input.visitMinDwellMinutes, 0, 240);
    if (input.grievanceAckHours != null) changes.grievanceAckHours = integerIn('grievanceAckHours', input.grievanceAckHours, 1, 720);
    if (input.grievanceResolveDays != null) changes.grievanceResolveDays = integerIn('grievanceResolveDays', input.grievanceResolveDays, 1, 365);
    const config = await ctx.em.findOneOrFail(WorkspaceConfig, { organizationId: ctx.organizationId });
    ctx.em.assign(config, changes);
    await ctx.em.flush();
    return rowOf(ctx.em, WorkspaceConfig, config);
  }

  private code(field: string, value: string, pattern: RegExp, what: string): string {
    const text = value.trim().toUpperCase();
    if (text !== '' && !pattern.test(text)) throw new ValidationError(field, `must be ${what}`);
    return text;
  }

  /**
   * An IANA zone name PostgreSQL knows (its `at time zone` computes local days) and Node can format
   * in, in PostgreSQL's spelling whatever the letter case given.
   */
  private async timeZone(ctx: RequestContext, value: string): Promise<string> {
    const name = value.trim();
    const [row] = await ctx.em.execute<{ name: string }[]>(
      `select name from pg_timezone_names where lower(name) = lower(?) and name !~ '^(posix|right)/' order by name = ? desc limit 1`,
      [name, name],
    );
    if (row && isFormattable(row.name)) return row.name;
    throw new ValidationError('timeZone', 'must be an IANA time zone name such as UTC or Asia/Kolkata');
  }

  private pageLimit(value: number): number {
    if (!Number.isInteger(value) || value < 1 || value > 100) throw new ValidationError('pageLimit', 'must be an integer from 1 to 100');
    return value;
  }
}

/** Live-tracking positions are kept from 1 day to 10 years. */
function positionRetentionDays(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 3650) throw new ValidationError('positionRetentionDays', 'must be an integer from 1 to 3650');
  return value;
}

/** Whether Node's Intl can show times in the zone. */
function isFormattable(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A whole number within [min, max] (the visit radius in metres, the minimum dwell in minutes). */
function integerIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new ValidationError(field, `must be an integer from ${min} to ${max}`);
  return value;
}
