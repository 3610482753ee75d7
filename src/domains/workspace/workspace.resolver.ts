import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import type { GraphqlContext } from '../../graphql/context';
import { InGroup } from '../../graphql/route-group';
import { Organization } from './organization.entity';
import { WorkspaceConfig } from './workspace-config.entity';
import { WorkspaceConfigInput } from './workspace.types';
import { COST } from '../../graphql/costs';

@Authorized()
@Resolver()
export class WorkspaceResolver {
  @InGroup('workspace')
  @Query(() => Organization, { complexity: COST.record, description: 'The caller’s workspace.' })
  workspace(@Ctx() { ctx, services }: GraphqlContext): Promise<Row<Organization>> {
    return services.workspace.organization(ctx);
  }

  @InGroup('workspace')
  @Query(() => WorkspaceConfig, { complexity: COST.record, description: 'Settings and branding of the caller’s workspace.' })
  workspaceConfig(@Ctx() { ctx, services }: GraphqlContext): Promise<Row<WorkspaceConfig>> {
    return services.workspace.config(ctx);
  }

  @InGroup('workspace')
  @Mutation(() => WorkspaceConfig, { complexity: COST.write, description: 'Admins only.' })
  updateWorkspaceConfig(
    @Arg('input', () => WorkspaceConfigInput) input: WorkspaceConfigInput,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<Row<WorkspaceConfig>> {
    return services.workspace.updateConfig(ctx, input);
  }
}
