import type { EntityManager } from '@mikro-orm/postgresql';
import { verifyLedger, type LedgerDifference } from '../domains/ledger/ledger-verify';
import { Organization } from '../domains/workspace/organization.entity';
import type { CliCommand } from './cli-command';
import type { StatsCommandHelpers } from './stats-commands';

const money = (n: number) => n.toFixed(2);

/** One customer's difference as a line: `customer 12: balance 150.00 (documents 100.00); orders …`. */
function differenceLine(d: LedgerDifference): string {
  const parts = (['balance', 'orders', 'payments'] as const)
    .filter((part) => d[part].ledger !== d[part].documents)
    .map((part) => `${part} ${money(d[part].ledger)} in the ledger, ${money(d[part].documents)} by the documents`);
  return `customer ${d.customerId}: ${parts.join('; ')}`;
}

/** ledger:verify (README, CLI section). */
export function ledgerCommands(helpers: StatsCommandHelpers): Record<string, CliCommand> {
  return {
    'ledger:verify': {
      usage: 'ledger:verify <slug>',
      summary: "proves the workspace's ledger invariant: each customer's balance equals delivered orders − payments ± notes (exit 1 naming each difference)",
      async run(em: EntityManager, args) {
        const slug = helpers.argument(args, 0, 'slug', this.usage);
        const organization = await em.findOne(Organization, { slug });
        if (!organization) throw helpers.noWorkspace(slug);
        const check = await verifyLedger(em, organization.id);
        if (check.differences.length > 0 || check.badReversals.length > 0) {
          throw new Error(
            [
              `${slug}: the ledger disagrees with the documents for ${check.differences.length} of ${check.customers} customer(s)`,
              ...check.differences.slice(0, 20).map(differenceLine),
              ...(check.differences.length > 20 ? [`... and ${check.differences.length - 20} more`] : []),
              ...(check.badReversals.length > 0 ? [`reversals that do not mirror their original: ${check.badReversals.join(', ')}`] : []),
            ].join('\n  '),
          );
        }
        return [`${slug}: the ledger of ${check.customers} customer(s) equals delivered orders − payments ± notes`];
      },
    },
  };
}
