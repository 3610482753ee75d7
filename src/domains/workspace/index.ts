import { defineDomain } from '../domain-module';
import { Organization } from './organization.entity';
import { SignupService } from './signup.service';
import { WorkspaceConfig } from './workspace-config.entity';
import { SignupPayloadResolver } from './signup-payload.resolver';
import { WorkspaceResolver } from './workspace.resolver';
import { WorkspaceService } from './workspace.service';

declare module '../domain-module' {
  interface Services {
    signup: SignupService;
    workspace: WorkspaceService;
  }
}

/** Workspaces (organizations): signup, and the workspace's profile and settings. */
export const workspaceDomain = defineDomain({
  name: 'workspace',
  entities: [Organization, WorkspaceConfig],
  services: ({ services }) => ({ signup: new SignupService(services.sessions, services.webhookEvents), workspace: new WorkspaceService() }),
  resolvers: [WorkspaceResolver, SignupPayloadResolver],
  routeGroups: { workspace: 'scoped', signup: 'refused' },
});
