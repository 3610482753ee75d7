import { unlockAccount } from '../domains/auth/lockout';
import { WorkspacePlan, WorkspaceStatus, type Organization } from '../domains/workspace/organization.entity';
import { changeWorkspace, listWorkspaces, STATUS_NAMES, type WorkspaceChange } from '../domains/workspace/workspace-operator';
import * as rules from '../validation/rules';
import type { CliCommand } from './cli-command';
import { ledgerCommands } from './ledger-commands';
import { statsCommands } from './stats-commands';

export type { CliCommand } from './cli-command';

/** A wrong or missing argument: the CLI prints the message and exits with status 2. */
export class UsageError extends Error {}

function argument(args: string[], index: number, name: string, usage: string): string {
  const value = args[index];
  if (value === undefined || value.trim() === '') throw new UsageError(`Missing <${name}>. Usage: ${usage}`);
  return value;
}

/** The value of `raw` among `choices` (by name), or a UsageError listing them. */
function choice<T>(raw: string, choices: Record<string, T>, what: string): T {
  if (!(raw in choices)) throw new UsageError(`Unknown ${what} "${raw}"; use one of: ${Object.keys(choices).join(', ')}`);
  return choices[raw];
}

/** The line a workspace change prints, or a UsageError when there is no such workspace. */
function changed<T>(change: WorkspaceChange<T> | null, slug: string, field: string, show: (v: T) => string): string[] {
  if (!change) throw new UsageError(`No workspace has the slug ${slug}`);
  return [`${change.slug}: ${field} ${show(change.before)} -> ${show(change.after)}`];
}

const STATUSES = Object.fromEntries(Object.entries(STATUS_NAMES).map(([code, name]) => [name, Number(code) as WorkspaceStatus]));
const PLANS = Object.fromEntries(Object.values(WorkspacePlan).map((plan) => [plan, plan]));
/** An ISO 8601 date or date-time with a real calendar date (2026-02-31 is refused), else null. */
function parseTimestamp(raw: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(raw);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  const when = new Date(raw);
  return Number.isNaN(when.getTime()) ? null : when;
}

const iso = (d: Date | null) => (d ? d.toISOString() : 'none');

const invalid = (message: string): never => {
  throw new UsageError(message);
};

/** What a `workspace:<name> <slug> <value>` command sets, and how it reads and shows the value. */
interface SetterSpec<F extends 'status' | 'trialEndsAt' | 'plan'> {
  name: string;
  /** The argument as usage shows it, e.g. `<active|suspended|trial>`, and its name in messages. */
  value: { synopsis: string; name: string };
  summary: string;
  field: F;
  /** How the printed change names the field. */
  label: string;
  parse: (raw: string) => Organization[F];
  show: (value: Organization[F]) => string;
}

/** A command that sets one field of a workspace and prints it before and after. */
function workspaceSetter<F extends 'status' | 'trialEndsAt' | 'plan'>(spec: SetterSpec<F>): CliCommand {
  const usage = `workspace:${spec.name} <slug> ${spec.value.synopsis}`;
  return {
    usage,
    summary: spec.summary,
    async run(em, args) {
      const slug = argument(args, 0, 'slug', usage);
      const value = spec.parse(argument(args, 1, spec.value.name, usage));
      const change = await changeWorkspace(em, slug, (o) => o[spec.field], (o) => (o[spec.field] = value));
      return changed(change, slug, spec.label, spec.show);
    },
  };
}

/** Every operator command by name (operations.md). */
/** What the per-workspace commands (stats:*, ledger:*) take of the CLI's conventions. */
const workspaceCommandHelpers = { argument, noWorkspace: (slug: string) => new UsageError(`No workspace has the slug ${slug}`) };

export const COMMANDS: Record<string, CliCommand> = {
  'workspace:list': {
    usage: 'workspace:list',
    summary: 'slug, status, plan, trial end, user count',
    async run(em) {
      const rows = await listWorkspaces(em);
      const lines = rows.map((w) => [w.slug, STATUS_NAMES[w.status], w.plan, iso(w.trialEndsAt), String(w.userCount)]);
      const table = [['SLUG', 'STATUS', 'PLAN', 'TRIAL END', 'USERS'], ...lines];
      const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
      return [...table.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()), `${rows.length} workspace(s)`];
    },
  },
  'workspace:status': workspaceSetter({
    name: 'status',
    value: { synopsis: '<active|suspended|trial>', name: 'status' },
    summary: 'sets the workspace status',
    field: 'status',
    label: 'status',
    parse: (raw) => choice(raw, STATUSES, 'status'),
    show: (status) => STATUS_NAMES[status],
  }),
  'workspace:trial-end': workspaceSetter({
    name: 'trial-end',
    value: { synopsis: '<ISO timestamp>', name: 'ISO timestamp' },
    summary: 'sets when its trial ends (a past time makes the trial expired)',
    field: 'trialEndsAt',
    label: 'trial end',
    parse: (raw) => parseTimestamp(raw) ?? invalid(`Not an ISO 8601 timestamp: ${raw} (e.g. 2026-12-31T23:59:59Z)`),
    show: iso,
  }),
  'workspace:plan': workspaceSetter({
    name: 'plan',
    value: { synopsis: '<free|starter|pro|professional>', name: 'plan' },
    summary: 'sets the plan',
    field: 'plan',
    label: 'plan',
    parse: (raw) => choice(raw, PLANS, 'plan'),
    show: String,
  }),
  'user:unlock': {
    usage: 'user:unlock <email>',
    summary: 'lifts a sign-in lockout',
    async run(em, args) {
      const raw = argument(args, 0, 'email', this.usage);
      let email: string;
      try {
        email = rules.email('email', raw);
      } catch {
        throw new UsageError(`Not an e-mail address: ${raw}`);
      }
      const outcome = await unlockAccount(em, email);
      if (!outcome) throw new UsageError(`No user has the e-mail address ${email}`);
      return [
        outcome.wasLocked
          ? `Unlocked ${outcome.email} (failed sign-ins: ${outcome.failedSignIns} -> 0)`
          : `${outcome.email} was not locked; failed sign-ins reset from ${outcome.failedSignIns} to 0`,
      ];
    },
  },
  ...statsCommands(workspaceCommandHelpers),
  ...ledgerCommands(workspaceCommandHelpers),
};
