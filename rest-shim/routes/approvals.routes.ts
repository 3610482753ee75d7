import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { changed, ok, paginated } from '../envelope';
import { ApprovalBody, DelegateBody, PolicyBody, PolicyTierBody, presentApproval, presentDelegate, presentPolicy } from '../presenters/approval.presenter';
import { changedResponse, IdParams, listQuery, listResponse, Nullable, okResponse, pageRequestOf } from '../schemas';
import { MAX_POLICY_TIERS } from '../../src/domains/approvals/approval-policy';
import { APPROVAL_SORT, MAX_APPROVAL_COMMENT } from '../../src/domains/approvals/approval.service';

const DecisionBody = Type.Object({ comment: Type.Optional(Nullable(Type.String({ maxLength: MAX_APPROVAL_COMMENT }))) });
const KindParams = Type.Object({ kind: Type.String({ maxLength: 32, description: 'An approval kind: foc' }) });
const UserParams = Type.Object({ user_id: Type.Integer({ minimum: 1 }) });
const PolicyPut = Type.Object({ tiers: Type.Array(PolicyTierBody, { maxItems: MAX_POLICY_TIERS }) });
const DelegatePut = Type.Object({ delegate_user_id: Nullable(Type.Integer({ minimum: 1, description: 'null removes the delegate' })) });
const InboxQuery = listQuery({ kind: Type.Optional(Type.String({ maxLength: 32, description: 'Only this kind (foc)' })) }, { sort: APPROVAL_SORT });

/** Approvals: the inbox, decisions, policies and delegates (see the README's API notes). */
export const approvalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Approvals'];
  const emptyBody = async (request: { body: unknown }) => {
    request.body ??= {};
  };

  app.get(
    '/approvals/inbox',
    { schema: { tags, summary: 'What the signed-in caller may decide now (staff sessions), oldest first', querystring: InboxQuery, response: listResponse(ApprovalBody) } },
    async (request) => paginated(await app.services.approvals.inbox(request.ctx, { kind: request.query.kind }, pageRequestOf(request.query)), presentApproval),
  );

  app.get(
    '/approvals/:id',
    { schema: { tags, summary: 'One approval with its steps (admins; employees: theirs to ask or decide)', params: IdParams, response: okResponse(ApprovalBody) } },
    async (request) => ok(presentApproval(await app.services.approvals.get(request.ctx, request.params.id))),
  );

  app.post(
    '/approvals/:id/approve',
    { preValidation: emptyBody, schema: { tags, summary: 'Approve the pending tier (409 unless it is your turn)', params: IdParams, body: DecisionBody, response: changedResponse(ApprovalBody) } },
    async (request) => changed('Approved', presentApproval(await app.services.approvals.approve(request.ctx, request.params.id, request.body.comment))),
  );

  app.post(
    '/approvals/:id/reject',
    { preValidation: emptyBody, schema: { tags, summary: 'Reject at the pending tier, rejecting the request (409 unless it is your turn)', params: IdParams, body: DecisionBody, response: changedResponse(ApprovalBody) } },
    async (request) => changed('Rejected', presentApproval(await app.services.approvals.reject(request.ctx, request.params.id, request.body.comment))),
  );

  app.get(
    '/approvals/policies/:kind',
    { schema: { tags, summary: "A kind's approval policy (admins)", params: KindParams, response: okResponse(PolicyBody) } },
    async (request) => ok(presentPolicy(await app.services.approvals.policy(request.ctx, request.params.kind))),
  );

  app.put(
    '/approvals/policies/:kind',
    { schema: { tags, summary: "Replace a kind's approval policy (admins); applies to new requests", params: KindParams, body: PolicyPut, response: changedResponse(PolicyBody) } },
    async (request) => {
      const tiers = request.body.tiers.map((t) => ({ minAmount: t.min_amount, approverUserId: t.approver_user_id ?? null, approverRoleId: t.approver_role_id ?? null }));
      return changed('Approval policy saved', presentPolicy(await app.services.approvals.setPolicy(request.ctx, request.params.kind, tiers)));
    },
  );

  app.get(
    '/approvals/delegates/:user_id',
    { schema: { tags, summary: "A user's delegate while on leave (their own, or anyone's for admins)", params: UserParams, response: okResponse(DelegateBody) } },
    async (request) => ok(presentDelegate(await app.services.approvals.delegate(request.ctx, request.params.user_id))),
  );

  app.put(
    '/approvals/delegates/:user_id',
    { schema: { tags, summary: "Set (null: remove) who decides a user's tiers while the user is on approved leave", params: UserParams, body: DelegatePut, response: changedResponse(DelegateBody) } },
    async (request) =>
      changed('Delegate saved', presentDelegate(await app.services.approvals.setDelegate(request.ctx, request.params.user_id, request.body.delegate_user_id))),
  );
};
