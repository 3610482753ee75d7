import { defineDomain } from '../domain-module';
import { Approval, ApprovalDelegate, ApprovalPolicy, ApprovalPolicyTier, ApprovalStep } from './approval.entity';
import { ApprovalFieldsResolver, ApprovalResolver, ApprovalStepFieldsResolver } from './approval.resolver';
import { ApprovalService } from './approval.service';

declare module '../domain-module' {
  interface Services {
    approvals: ApprovalService;
  }
}

/** Generic approvals: policies per kind, tiers decided in order, delegates while on leave; kinds register a handler (approval-kinds.ts). */
export const approvalsDomain = defineDomain({
  name: 'approvals',
  entities: [Approval, ApprovalStep, ApprovalPolicy, ApprovalPolicyTier, ApprovalDelegate],
  services: () => ({ approvals: new ApprovalService() }),
  resolvers: [ApprovalResolver, ApprovalFieldsResolver, ApprovalStepFieldsResolver],
  routeGroups: { approvals: 'scoped' },
});
