import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, tenantSql } from '../../db/tenant-sql';
import { ValidationError } from '../../errors/app-error';
import { calendarDate } from '../../validation/rules';
import type { ExportFilters, ExportKind } from './export-kinds';
import type { ExportSource, FilterNames } from './sources/export-source';

/** Filters as read (dates trimmed), and the names the title prints. */
export interface CheckedFilters {
  filters: ExportFilters;
  names: FilterNames;
}

/**
 * Checks an export's filters against its kind and the workspace (400 naming the filter): only the
 * kind's own filters, real calendar dates, `dateFrom` not after `dateTo`, a production unit of
 * this workspace.
 */
export async function checkFilters(em: EntityManager, organizationId: number, kind: ExportKind, source: ExportSource, given: ExportFilters): Promise<CheckedFilters> {
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined && value !== null && !source.filters.includes(name as keyof ExportFilters)) {
      throw new ValidationError(name, `does not apply to ${kind} exports (they take ${source.filters.join(', ')})`);
    }
  }
  // Dates as read (trimmed), not as sent: ' 2026-03-02' would sort before '2026-03-01'.
  const filters: ExportFilters = {
    ...given,
    ...(given.dateFrom !== undefined && { dateFrom: calendarDate('dateFrom', given.dateFrom) }),
    ...(given.dateTo !== undefined && { dateTo: calendarDate('dateTo', given.dateTo) }),
  };
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
  if (filters.productionUnitId === undefined) return { filters, names: {} };
  const t = tenantSql(organizationId, 'pu');
  const [unit] = await executeSql<{ name: string }>(em, sql`select pu.name from production_unit pu where ${t.owns()} and pu.id = ${filters.productionUnitId}`);
  if (!unit) throw new ValidationError('productionUnitId', 'is not a production unit of this workspace');
  return { filters, names: { productionUnit: unit.name } };
}
