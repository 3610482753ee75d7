import type { EntityManager } from '@mikro-orm/postgresql';
import { checkRollups, rebuildRollups, type RollupDifference } from '../domains/dashboard/rollups';
import { Organization } from '../domains/workspace/organization.entity';
import type { CliCommand } from './cli-command';

/** What the rollup commands need of the CLI's conventions (commands.ts). */
export interface StatsCommandHelpers {
  argument(args: string[], index: number, name: string, usage: string): string;
  noWorkspace(slug: string): Error;
}

/** The workspace's organization id, or the CLI's "no such workspace" error. */
async function workspaceId(em: EntityManager, slug: string, helpers: StatsCommandHelpers): Promise<number> {
  const organization = await em.findOne(Organization, { slug });
  if (!organization) throw helpers.noWorkspace(slug);
  return organization.id;
}

const rowSummary = (rows: Record<string, number>) =>
  Object.entries(rows)
    .map(([table, n]) => `${table} ${n} rows`)
    .join(', ');

/** One differing row as a line: `line_day_rollup day 2026-11-20 product_variant_id 7: quantity 12 (base rows: 15)`. */
function differenceLine(d: RollupDifference): string {
  const key = Object.entries(d.key)
    .map(([k, v]) => `${k} ${v}`)
    .join(' ');
  const columns = Object.entries(d.columns)
    .map(([c, [stored, expected]]) => `${c} ${stored} (base rows: ${expected})`)
    .join(', ');
  return `${d.table} ${key}: ${columns}`;
}

/** stats:rebuild and stats:check (README, CLI section). */
export function statsCommands(helpers: StatsCommandHelpers): Record<string, CliCommand> {
  return {
    'stats:rebuild': {
      usage: 'stats:rebuild <slug>',
      summary: "rebuilds the workspace's dashboard aggregates from its orders, lines and payments",
      async run(em, args) {
        const slug = helpers.argument(args, 0, 'slug', this.usage);
        const rebuilt = await rebuildRollups(em, await workspaceId(em, slug, helpers));
        return [`${slug}: dashboard aggregates rebuilt (${rowSummary(rebuilt.rows)}); ${rebuilt.corrected} row(s) differed from the base rows`];
      },
    },
    'stats:check': {
      usage: 'stats:check <slug>',
      summary: "checks that the workspace's dashboard aggregates equal its base rows (exit 1 naming each difference)",
      async run(em, args) {
        const slug = helpers.argument(args, 0, 'slug', this.usage);
        const check = await checkRollups(em, await workspaceId(em, slug, helpers));
        if (check.differing > 0) {
          const more = check.differing - check.listed.length;
          throw new Error(
            [
              `${slug}: ${check.differing} row(s) of the dashboard aggregates differ from the base rows; stats:rebuild ${slug} corrects them`,
              ...check.listed.map(differenceLine),
              ...(more > 0 ? [`... and ${more} more`] : []),
            ].join('\n  '),
          );
        }
        return [`${slug}: dashboard aggregates equal the base rows (${rowSummary(check.rows)})`];
      },
    },
  };
}
