import { registerEnumType } from 'type-graphql';
import type { OrderStatus } from '../orders/order.entity';
import type { UserType } from '../users/user.entity';
import type { ActiveStatus } from '../../db/active-status';

/** What an export lists. */
export enum ExportKind {
  ORDERS = 'orders',
  USERS = 'users',
  SALES = 'sales',
}
registerEnumType(ExportKind, { name: 'ExportKind', description: 'orders, users, or sales (one row per order line)' });

/** The file an export is written as. */
export enum ExportFormat {
  XLSX = 'xlsx',
  PDF = 'pdf',
}
registerEnumType(ExportFormat, { name: 'ExportFormat' });

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  [ExportFormat.XLSX]: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  [ExportFormat.PDF]: 'application/pdf',
};

/** The most rows a PDF holds; larger exports are for XLSX (or narrower filters). */
export const PDF_ROW_LIMIT = 5_000;

/** The filters of every kind; each kind takes some of them (`ExportSource.filters`). */
export interface ExportFilters {
  /** Orders: order_status 1–4. */
  orderStatus?: OrderStatus;
  /** Orders and sales: order_date from (inclusive, YYYY-MM-DD). */
  dateFrom?: string;
  /** Orders and sales: order_date to (inclusive). */
  dateTo?: string;
  /** Orders: orders of this production unit. */
  productionUnitId?: number;
  /** Users: of this type. */
  userType?: UserType;
  /** Users: active (1) or inactive (0). */
  userStatus?: ActiveStatus;
}

export type ExportFilterName = keyof ExportFilters;

/** `orders-2026-11-22.xlsx`: the kind, the workspace's local day and the format. */
export function exportFileName(kind: ExportKind, format: ExportFormat, localDay: string): string {
  return `${kind}-${localDay}.${format}`;
}
