import { LineDayRollup } from '../domains/dashboard/line-day-rollup.entity';
import { OrderDayRollup } from '../domains/dashboard/order-day-rollup.entity';
import { ExportChunk } from '../domains/exports/export-chunk.entity';
import { ExportJob } from '../domains/exports/export-job.entity';
import { TenantCounter } from './tenant-counter.entity';
import { ApiKey } from '../domains/api-keys/api-key.entity';
import { Attendance } from '../domains/attendance/attendance.entity';
import { WebhookDelivery } from '../domains/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../domains/webhooks/webhook-endpoint.entity';
import { Passkey } from '../domains/auth/passkey.entity';
import { SignInCode } from '../domains/auth/sign-in-code.entity';
import { SpentNonce } from '../domains/auth/spent-nonce.entity';
import { NamedRecord } from '../domains/masters/named-record.entity';
import { Outlet } from '../domains/masters/outlet.entity';
import { Payment } from '../domains/payments/payment.entity';
import { ProductionUnit } from '../domains/masters/production-unit.entity';
import { ProductClass } from '../domains/masters/product-class.entity';
import { Route } from '../domains/masters/route.entity';
import { Town } from '../domains/masters/town.entity';
import { OrderItem } from '../domains/orders/order-item.entity';
import { OrderStatusHistory } from '../domains/orders/order-status-history.entity';
import { Order } from '../domains/orders/order.entity';
import { ProductVariant } from '../domains/products/product-variant.entity';
import { Product } from '../domains/products/product.entity';
import { Role } from '../domains/users/role.entity';
import { User } from '../domains/users/user.entity';
import { Organization } from '../domains/workspace/organization.entity';
import { WorkspaceConfig } from '../domains/workspace/workspace-config.entity';
import { BaseEntity } from './base.entity';
import { TenantEntity } from './tenant.entity';

/** Every entity class, listed explicitly so discovery never depends on file globs. */
export const ENTITIES = [
  BaseEntity,
  TenantEntity,
  NamedRecord,
  Organization,
  WorkspaceConfig,
  Role,
  User,
  Town,
  Route,
  ProductionUnit,
  ProductClass,
  Product,
  ProductVariant,
  Order,
  OrderItem,
  OrderStatusHistory,
  TenantCounter,
  SignInCode,
  Passkey,
  SpentNonce,
  ApiKey,
  WebhookEndpoint,
  WebhookDelivery,
  Attendance,
  Outlet,
  Payment,
  ExportJob,
  ExportChunk,
  OrderDayRollup,
  LineDayRollup,
];
