import { ValidationError } from '../../errors/app-error';
import type { ExportFilter, ExportSource } from './export-source';

/** A filter as the GraphQL input shows it: its definition, and the kinds that take it. */
export interface CatalogFilter {
  name: string;
  filter: ExportFilter;
  kinds: string[];
}

/** The export kinds the domains declare (each module's `exports`), by kind. */
export class ExportCatalog {
  private readonly byKind = new Map<string, ExportSource>();

  constructor(readonly sources: readonly ExportSource[]) {
    for (const source of sources) {
      if (!/^[a-z][a-z0-9-]*$/.test(source.kind)) throw new Error(`export kind ${source.kind} must be lower-case letters, digits and hyphens`);
      if (this.byKind.has(source.kind)) throw new Error(`export kind ${source.kind} is declared twice`);
      this.byKind.set(source.kind, source);
    }
  }

  /** The kinds, in the order of the domain list. */
  get kinds(): string[] {
    return [...this.byKind.keys()];
  }

  /** The source of `kind`; 400 naming `kind` for one no domain declares (a job of a kind since removed). */
  sourceOf(kind: string): ExportSource {
    const source = this.byKind.get(kind);
    if (!source) throw new ValidationError('kind', `must be one of ${this.kinds.join(', ')}`);
    return source;
  }

  /** Every filter of every kind, each name once; two kinds may share a name only with one input type. */
  filters(): CatalogFilter[] {
    const byName = new Map<string, CatalogFilter>();
    for (const source of this.sources) {
      for (const [name, filter] of Object.entries(source.filters)) {
        const seen = byName.get(name);
        if (!seen) byName.set(name, { name, filter, kinds: [source.kind] });
        else if (seen.filter.graphqlType() !== filter.graphqlType()) throw new Error(`export filter ${name} has two input types (${seen.kinds[0]}, ${source.kind})`);
        else seen.kinds.push(source.kind);
      }
    }
    return [...byName.values()];
  }
}
