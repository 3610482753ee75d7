import { registerEnumType } from 'type-graphql';

/** The file an export is written as. */
export enum ExportFormat {
  XLSX = 'xlsx',
  PDF = 'pdf',
  CSV = 'csv',
}
registerEnumType(ExportFormat, { name: 'ExportFormat' });

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  [ExportFormat.XLSX]: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  [ExportFormat.PDF]: 'application/pdf',
  [ExportFormat.CSV]: 'text/csv; charset=utf-8',
};

/** The most rows a PDF holds; larger exports are for XLSX or CSV (or narrower filters). */
export const PDF_ROW_LIMIT = 5_000;

/** `orders-2026-11-22.xlsx`: the kind, the workspace's local day and the format. */
export function exportFileName(kind: string, format: ExportFormat, localDay: string): string {
  return `${kind}-${localDay}.${format}`;
}
