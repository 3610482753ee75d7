import { Type } from '@sinclair/typebox';
import type { Row } from '../../src/db/entity-rows';
import type { SignInResult } from '../../src/domains/auth/sign-in-session';
import type { Passkey } from '../../src/domains/auth/passkey.entity';
import type { UserRead } from '../../src/domains/users/user-read';
import type { Organization } from '../../src/domains/workspace/organization.entity';
import { Nullable, Timestamp } from '../schemas';

/** A navigation module of the login answer. */
const NavigationModuleBody = Type.Object({
  key: Type.String({ description: 'Stable identifier, e.g. orders' }),
  label: Type.String(),
  path: Type.String({ description: "Path of the web app's page" }),
  actions: Type.Array(Type.String(), { description: 'e.g. view, create, update_status' }),
});

/** The user in sign-up and sign-in answers (each adds a field of its own). */
export const SessionUserBody = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  official_email: Nullable(Type.String()),
  role_name: Type.String(),
  user_type: Type.Integer(),
  organization_id: Type.Integer(),
});

/** The workspace in sign-up and sign-in answers. */
export const SessionWorkspaceBody = Type.Object({
  workspace_id: Type.String(),
  slug: Type.String(),
  display_name: Type.String(),
  plan: Type.String(),
  status: Type.Integer(),
});

/** The user of a new session, with the name of its role. */
export function presentSessionUser({ user, role }: Pick<UserRead, 'user' | 'role'>) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    official_email: user.officialEmail,
    role_name: role.name,
    user_type: user.userType,
    organization_id: user.organizationId,
  };
}

/** The workspace of a new session. */
export function presentSessionWorkspace(o: Row<Organization>) {
  return { workspace_id: o.workspaceId, slug: o.slug, display_name: o.displayName, plan: o.plan, status: o.status };
}

/** The answer of every sign-in method: token, user, workspace and navigation modules at the top level. */
export const SignInAnswer = Type.Object({
  response_code: Type.Integer(),
  message: Type.String(),
  token: Type.String(),
  user: Type.Composite([SessionUserBody, Type.Object({ organization_name: Type.String() })]),
  workspace: SessionWorkspaceBody,
  modules: Type.Array(NavigationModuleBody),
});

/** A sign-in's answer. */
export function presentSignIn(result: SignInResult) {
  const { token, organization, modules } = result;
  return {
    response_code: 200,
    message: 'Signed in',
    token,
    user: { ...presentSessionUser(result), organization_name: organization.displayName },
    workspace: presentSessionWorkspace(organization),
    modules,
  };
}

/** A passkey as its owner sees it (never the key material). */
export const PasskeyBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  credential_id: Type.String(),
  backed_up: Type.Boolean(),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

/** A passkey's row as its owner sees it. */
export function presentPasskey(p: Row<Passkey>) {
  return { id: p.id, name: p.name, credential_id: p.credentialId, backed_up: p.backedUp, created_at: p.createdAt, last_used_at: p.lastUsedAt };
}
