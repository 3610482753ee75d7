import { defineDomain } from '../domain-module';
import { LedgerEntry } from './ledger-entry.entity';
import { ledgerExport } from './ledger.export';
import { LedgerEntryFieldsResolver, LedgerResolver } from './ledger.resolver';
import { LedgerService } from './ledger.service';

declare module '../domain-module' {
  interface Services {
    ledger: LedgerService;
  }
}

/**
 * Customers' accounts: the append-only `ledger_entry` (orders and payments posted by database
 * triggers as they are delivered and recorded; notes, opening balances and reversals by this
 * service), the one statement function (ledger-statement.ts) and the invariant check (ledger-verify.ts).
 */
export const ledgerDomain = defineDomain({
  name: 'ledger',
  entities: [LedgerEntry],
  services: () => ({ ledger: new LedgerService() }),
  resolvers: [LedgerResolver, LedgerEntryFieldsResolver],
  routeGroups: { ledger: 'scoped' },
  exports: [ledgerExport],
});
