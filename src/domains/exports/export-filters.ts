import { ValidationError } from '../../errors/app-error';
import type { ExportFilters, ExportSource, FilterScope } from './export-source';

/** Filters as read (dates trimmed), and the names of the records they point at, for the title lines. */
export interface CheckedFilters {
  filters: ExportFilters;
  labels: Record<string, string>;
}

/**
 * Checks an export's filters against its kind and the workspace (400 naming the filter): only the
 * kind's own filters, each value by its filter's rule (real calendar dates, a production unit of
 * this workspace), then the kind's rules across them (a date range in order), then the defaults
 * the kind fixes for filters left out (a report's day).
 */
export async function checkFilters(scope: FilterScope, source: ExportSource, given: ExportFilters): Promise<CheckedFilters> {
  const filters: Record<string, string | number> = {};
  const labels: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || value === null) continue;
    const filter = Object.hasOwn(source.filters, name) ? source.filters[name] : undefined;
    if (!filter) throw new ValidationError(name, `does not apply to ${source.kind} exports (they take ${Object.keys(source.filters).join(', ')})`);
    const checked = filter.check ? await filter.check(name, value, scope) : { value };
    filters[name] = checked.value;
    if (checked.label !== undefined) labels[name] = checked.label;
  }
  source.checkTogether?.(filters);
  if (source.defaults) Object.assign(filters, await source.defaults(scope, filters));
  return { filters, labels };
}
