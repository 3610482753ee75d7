import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../../errors/app-error';
import { calendarDate } from '../../shared/rules';
import type { ExportFilters, ExportKind } from './export-kinds';
import type { ExportSource, FilterNames } from './sources/export-source';

/**
 * Checks an export's filters against its kind and the workspace (400 naming the filter): only the
 * kind's own filters, real calendar dates, `dateFrom` not after `dateTo`, a production unit of
 * this workspace. Returns the names the title prints.
 */
export async function checkFilters(em: EntityManager, organizationId: number, kind: ExportKind, source: ExportSource, filters: ExportFilters): Promise<FilterNames> {
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== null && !source.filters.includes(name as keyof ExportFilters)) {
      throw new ValidationError(name, `does not apply to ${kind} exports (they take ${source.filters.join(', ')})`);
    }
  }
  if (filters.dateFrom !== undefined) calendarDate('dateFrom', filters.dateFrom);
  if (filters.dateTo !== undefined) calendarDate('dateTo', filters.dateTo);
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) throw new ValidationError('dateFrom', 'must not be after dateTo');
  if (filters.productionUnitId === undefined) return {};
  const [unit] = await em.execute<{ name: string }[]>('select name from production_unit where organization_id = ? and id = ?', [
    organizationId,
    filters.productionUnitId,
  ]);
  if (!unit) throw new ValidationError('productionUnitId', 'is not a production unit of this workspace');
  return { productionUnit: unit.name };
}
