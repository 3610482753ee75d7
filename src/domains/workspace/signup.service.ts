import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rowOf, type Row } from '../../db/entity-rows';
import { scopeToOrganization } from '../../db/tenant-filter';
import { hashPassword } from '../auth/passwords';
import * as rules from '../../validation/rules';
import type { SessionService } from '../auth/session.service';
import { Role, DEFAULT_ROLE_NAMES } from '../users/role.entity';
import { userReadOf, type UserRead } from '../users/user-read';
import { assertContactsUnused } from '../users/user-uniqueness';
import { User, UserType } from '../users/user.entity';
import { Organization, WorkspacePlan, WorkspaceStatus } from './organization.entity';
import { WorkspaceConfig } from './workspace-config.entity';
import { userCreatedData } from '../webhooks/event-data';
import type { WebhookEventQueue } from '../webhooks/webhook-event-queue';

/** Days a new workspace stays in trial. */
export const TRIAL_DAYS = 14;

/** What self-service signup needs. */
export interface SignupInput {
  firstName: string;
  lastName: string;
  officialEmail: string;
  primaryContactNumber: string;
  password: string;
  organizationName: string;
}

/** A new workspace with its first admin (the user read), signed in. */
export interface SignupResult extends UserRead {
  token: string;
  organization: Row<Organization>;
}

/** Turns an organization name into a URL-safe slug stem. */
export function slugify(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return stem || 'workspace';
}

/** Self-service signup: creates a workspace, its default settings and roles, and its first admin. */
export class SignupService {
  constructor(
    private readonly sessions: SessionService,
    private readonly events: WebhookEventQueue,
  ) {}

  /** Validates, then creates everything in one transaction; duplicates of e-mail or phone are 409. */
  async register(em: EntityManager, input: SignupInput): Promise<SignupResult> {
    const data = {
      firstName: rules.requiredText('firstName', input.firstName, 100),
      lastName: rules.requiredText('lastName', input.lastName, 100),
      officialEmail: rules.email('officialEmail', input.officialEmail),
      primaryContactNumber: rules.phone('primaryContactNumber', input.primaryContactNumber),
      password: rules.newPassword('password', input.password),
      organizationName: rules.requiredText('organizationName', input.organizationName, 200),
    };
    await assertContactsUnused(em, data.officialEmail, data.primaryContactNumber);
    const passwordHash = await hashPassword(data.password);

    return em.transactional(async (tx) => {
      const organization = tx.create(Organization, {
        workspaceId: `ws_${randomBytes(8).toString('hex')}`,
        slug: await this.freeSlug(tx, slugify(data.organizationName)),
        displayName: data.organizationName,
        plan: WorkspacePlan.FREE,
        status: WorkspaceStatus.TRIAL,
        trialEndsAt: new Date(Date.now() + TRIAL_DAYS * 24 * 60 * 60 * 1000),
      });
      await tx.flush();
      scopeToOrganization(tx, organization.id);
      const organizationId = organization.id;
      tx.create(WorkspaceConfig, { organizationId, orgFooterName: data.organizationName });
      const roles = DEFAULT_ROLE_NAMES.map((name) => tx.create(Role, { organizationId, name }));
      const user = tx.create(User, {
        organizationId,
        firstName: data.firstName,
        lastName: data.lastName,
        officialEmail: data.officialEmail,
        primaryContactNumber: data.primaryContactNumber,
        passwordHash,
        role: roles[0],
        userType: UserType.ADMIN,
      });
      const token = await this.sessions.start(tx, user);
      // A new workspace has no endpoints yet, so nobody receives this: emitted for one rule everywhere.
      await this.events.emit(tx, organizationId, 'user.created', userCreatedData(user));
      return { token, ...userReadOf(tx, user), organization: rowOf(tx, Organization, organization) };
    });
  }

  /** The stem, or the stem with the smallest free numeric suffix. */
  private async freeSlug(em: EntityManager, stem: string): Promise<string> {
    const taken = await em.find(
      Organization,
      { slug: { $like: `${stem}%` } },
      { fields: ['slug'] },
    );
    const used = new Set(taken.map((o) => o.slug));
    if (!used.has(stem)) return stem;
    for (let n = 2; ; n++) {
      if (!used.has(`${stem}-${n}`)) return `${stem}-${n}`;
    }
  }
}
