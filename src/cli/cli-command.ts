import type { EntityManager } from '@mikro-orm/postgresql';

/** One operator command: its arguments' synopsis and what it does (returns the lines to print). */
export interface CliCommand {
  usage: string;
  summary: string;
  run(em: EntityManager, args: string[]): Promise<string[]>;
}
