import type { EntityManager } from '@mikro-orm/postgresql';
import { unlockAccount } from '../domains/auth/lockout';
import * as rules from '../shared/rules';

/** A wrong or missing argument: the CLI prints the message and exits with status 2. */
export class UsageError extends Error {}

/** One operator command: its arguments' synopsis and what it does (returns the lines to print). */
export interface CliCommand {
  usage: string;
  summary: string;
  run(em: EntityManager, args: string[]): Promise<string[]>;
}

function argument(args: string[], index: number, name: string, usage: string): string {
  const value = args[index];
  if (value === undefined || value.trim() === '') throw new UsageError(`Missing <${name}>. Usage: ${usage}`);
  return value;
}

/** Every operator command by name (operations.md). */
export const COMMANDS: Record<string, CliCommand> = {
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
};
