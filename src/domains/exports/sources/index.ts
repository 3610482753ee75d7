import { ExportKind } from '../export-kinds';
import type { ExportSource } from './export-source';
import { ordersSource } from './orders.source';
import { salesSource } from './sales.source';
import { usersSource } from './users.source';

export const EXPORT_SOURCES: Record<ExportKind, ExportSource> = {
  [ExportKind.ORDERS]: ordersSource,
  [ExportKind.USERS]: usersSource,
  [ExportKind.SALES]: salesSource,
};
