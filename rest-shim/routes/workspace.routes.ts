import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { presentWorkspace, presentWorkspaceConfig, WorkspaceBody, WorkspaceConfigBody } from '../presenters/workspace.presenter';
import { changedResponse, Nullable, okResponse } from '../schemas';
import { changed, ok } from '../envelope';

const UpdateConfigBody = Type.Object(
  {
    logo: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: 'http(s) URL; empty or null removes it' }))),
    primary_color: Type.Optional(Type.String({ maxLength: 7, description: '#RRGGBB' })),
    secondary_color: Type.Optional(Type.String({ maxLength: 7, description: '#RRGGBB' })),
    org_footer_name: Type.Optional(Type.String({ maxLength: 200 })),
    org_address: Type.Optional(Type.String({ maxLength: 500 })),
    contact_number: Type.Optional(Type.String({ maxLength: 30 })),
    gstin: Type.Optional(Type.String({ maxLength: 15, description: 'Extension' })),
    fssai: Type.Optional(Type.String({ maxLength: 14, description: 'Extension' })),
    order_timing: Type.Optional(Type.String({ maxLength: 11, description: 'HH:MM-HH:MM (extension)' })),
    page_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Extension' })),
    chatbot_enabled: Type.Optional(Type.Boolean({ description: 'Extension' })),
    time_zone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone, e.g. Asia/Kolkata (extension)' })),
    position_retention_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'Days live-tracking positions are kept (extension); default 90' })),
    visit_radius_m: Type.Optional(Type.Integer({ minimum: 10, maximum: 5000, description: 'Metres from an outlet’s tag within which a visit is geo-verified (extension); default 100' })),
    visit_min_dwell_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 240, description: 'Minutes a visit must last to be geo-verified (extension); default 2' })),
    grievance_ack_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'Hours a new grievance must be acknowledged within (extension); default 48' })),
    grievance_resolve_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'Days a new grievance must be resolved within (extension); default 30' })),
  },
  { minProperties: 1 },
);

/** GET and PUT /workspace/config. */
export const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/workspace/config',
    {
      schema: {
        tags: ['Workspace'],
        summary: 'Workspace configuration and the workspace',
        response: okResponse(Type.Object({ config: WorkspaceConfigBody, workspace: WorkspaceBody })),
      },
    },
    async (request) => {
      const { config, organization } = await app.services.workspace.overview(request.ctx);
      return ok({ config: presentWorkspaceConfig(config), workspace: presentWorkspace(organization) });
    },
  );

  app.put(
    '/workspace/config',
    {
      schema: {
        tags: ['Workspace'],
        summary: 'Change the workspace configuration (admins only); omitted fields stay',
        body: UpdateConfigBody,
        response: changedResponse(WorkspaceConfigBody),
      },
    },
    async (request) => {
      const b = request.body;
      const config = await app.services.workspace.updateConfig(request.ctx, {
        logo: b.logo,
        primaryColor: b.primary_color,
        secondaryColor: b.secondary_color,
        orgFooterName: b.org_footer_name,
        orgAddress: b.org_address,
        contactNumber: b.contact_number,
        gstin: b.gstin,
        fssai: b.fssai,
        orderTiming: b.order_timing,
        pageLimit: b.page_limit,
        chatbotEnabled: b.chatbot_enabled,
        timeZone: b.time_zone,
        positionRetentionDays: b.position_retention_days,
        visitRadiusM: b.visit_radius_m,
        visitMinDwellMinutes: b.visit_min_dwell_minutes,
        grievanceAckHours: b.grievance_ack_hours,
        grievanceResolveDays: b.grievance_resolve_days,
      });
      return changed('Workspace configuration updated', presentWorkspaceConfig(config));
    },
  );
};
