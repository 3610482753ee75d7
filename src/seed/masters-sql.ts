import type { ClientBase } from 'pg';
import type { WorkspacePlanRows } from './workspace-plan';
import { ActiveStatus } from '../db/active-status';
import { UserType } from '../domains/users/user.entity';

/**
 * Inserts a planned workspace's organization, settings, roles, masters, catalogue and users: one
 * multi-row statement per table (INSERT … SELECT FROM unnest of array parameters). Rows are matched
 * back to their ids by their natural keys (names, SKU codes, phone numbers), never by RETURNING order.
 */

/** Ids of what the orders refer to. */
export interface WorkspaceIds {
  organizationId: number;
  /** Active distributors and retailers: id, town id, route id. */
  distributors: Array<{ id: number; townId: number | null; routeId: number | null }>;
  retailers: Array<{ id: number; townId: number | null; routeId: number | null }>;
  /** Active admins and employees (who move orders along and record payments). */
  staff: number[];
  productionUnits: number[];
  /** Every variant, in SKU order: id, selling price in paise, its product and product class. */
  variants: Array<{ id: number; spPaise: number; productId: number; classId: number }>;
  /** Every town, with its routes, in plan order. */
  towns: Array<{ id: number; routeIds: number[] }>;
  adminUserId: number;
}

export type RowCounts = Record<string, number>;

async function rows<T>(client: ClientBase, sql: string, params: unknown[]): Promise<T[]> {
  return (await client.query(sql, params)).rows as T[];
}

export async function insertMasters(client: ClientBase, plan: WorkspacePlanRows, passwordHash: string, counts: RowCounts): Promise<WorkspaceIds> {
  const bump = (table: string, n: number) => (counts[table] = (counts[table] ?? 0) + n);
  const at = plan.createdAt;

  const [{ id: organizationId }] = await rows<{ id: number }>(
    client,
    `insert into organization (workspace_id, slug, display_name, plan, status, max_users, trial_ends_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning id`,
    [plan.workspaceId, plan.slug, plan.displayName, plan.plan, plan.status, plan.maxUsers, plan.trialEndsAt, at],
  );
  bump('organization', 1);
  const c = plan.config;
  await client.query(
    `insert into workspace_config (organization_id, primary_color, secondary_color, org_footer_name, org_address, gstin, fssai, contact_number, time_zone, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [organizationId, c.primaryColor, c.secondaryColor, c.orgFooterName, c.orgAddress, c.gstin, c.fssai, c.contactNumber, c.timeZone, at],
  );
  bump('workspace_config', 1);

  const roleRows = await rows<{ id: number; name: string }>(
    client,
    `insert into role (organization_id, name, description, created_at, updated_at)
     select $1, r.name, r.description, $4, $4 from unnest($2::text[], $3::text[]) as r(name, description) returning id, name`,
    [organizationId, plan.roles.map((r) => r.name), plan.roles.map((r) => r.description), at],
  );
  bump('role', roleRows.length);
  const roleId = new Map(roleRows.map((r) => [r.name, r.id]));

  const townRows = await rows<{ id: number; name: string }>(
    client,
    `insert into town (organization_id, name, created_at, updated_at)
     select $1, name, $3, $3 from unnest($2::text[]) as t(name) returning id, name`,
    [organizationId, plan.towns.map((t) => t.name), at],
  );
  bump('town', townRows.length);
  const townIds = plan.towns.map((t) => townRows.find((row) => row.name === t.name)!.id);

  const routeList = plan.towns.flatMap((t, ti) => t.routes.map((name, ri) => ({ ti, ri, name })));
  const routeRows = await rows<{ id: number; town_id: number; name: string }>(
    client,
    `insert into route (organization_id, town_id, name, created_at, updated_at)
     select $1, town_id, name, $4, $4 from unnest($2::int[], $3::text[]) as r(town_id, name) returning id, town_id, name`,
    [organizationId, routeList.map((r) => townIds[r.ti]), routeList.map((r) => r.name), at],
  );
  bump('route', routeRows.length);
  const routeIds = plan.towns.map((t, ti) => t.routes.map((name) => routeRows.find((row) => row.town_id === townIds[ti] && row.name === name)!.id));

  const o = plan.outlets;
  const outletResult = await client.query(
    `insert into outlet (organization_id, name, town_id, route_id, phone, latitude, longitude, tagged_at, created_at, updated_at)
     select $1, name, town_id, route_id, phone, lat, lng, tagged_at, $9, coalesce(tagged_at, $9)
       from unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::numeric[], $7::numeric[], $8::timestamptz[])
            as x(name, town_id, route_id, phone, lat, lng, tagged_at)`,
    [
      organizationId,
      o.map((x) => x.name),
      o.map((x) => townIds[x.town]),
      o.map((x) => routeIds[x.town][x.route]),
      o.map((x) => x.phone),
      o.map((x) => x.lat),
      o.map((x) => x.lng),
      o.map((x) => x.taggedAt),
      at,
    ],
  );
  bump('outlet', outletResult.rowCount ?? 0);

  const unitRows = await rows<{ id: number; name: string }>(
    client,
    `insert into production_unit (organization_id, name, created_at, updated_at)
     select $1, name, $3, $3 from unnest($2::text[]) as u(name) returning id, name`,
    [organizationId, plan.productionUnits, at],
  );
  bump('production_unit', unitRows.length);

  const classRows = await rows<{ id: number; name: string }>(
    client,
    `insert into product_class (organization_id, name, unit, created_at, updated_at)
     select $1, name, unit, $4, $4 from unnest($2::text[], $3::text[]) as c(name, unit) returning id, name`,
    [organizationId, plan.classes.map((x) => x.name), plan.classes.map((x) => x.unit), at],
  );
  bump('product_class', classRows.length);
  const classIds = plan.classes.map((x) => classRows.find((row) => row.name === x.name)!.id);

  const p = plan.products;
  const productRows = await rows<{ id: number; name: string }>(
    client,
    `insert into product (organization_id, name, product_class_id, hsn, color_code, description, created_at, updated_at)
     select $1, name, class_id, hsn, color, description, $7, $7
       from unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[]) as p(name, class_id, hsn, color, description)
     returning id, name`,
    [organizationId, p.map((x) => x.name), p.map((x) => classIds[x.classIndex]), p.map((x) => x.hsn), p.map((x) => x.color), p.map((x) => x.description), at],
  );
  bump('product', productRows.length);
  const productId = new Map(productRows.map((r) => [r.name, r.id]));

  const v = p.flatMap((x) => x.variants.map((variant) => ({ ...variant, productId: productId.get(x.name)! })));
  const classOfProduct = new Map(p.map((x) => [productId.get(x.name)!, classIds[x.classIndex]]));
  const variantRows = await rows<{ id: number; item_sku_code: string; sp: string; product_id: number }>(
    client,
    `insert into product_variant (organization_id, product_id, variant_name, item_sku_code, mrp, sp, variant_size, variant_quantity, container_quantity, unit_quantity, created_at, updated_at)
     select $1, product_id, name, sku, mrp, sp, size, 1, container_quantity, unit_quantity, $10, $10
       from unnest($2::int[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::text[], $8::int[], $9::numeric[])
            as v(product_id, name, sku, mrp, sp, size, container_quantity, unit_quantity)
     returning id, item_sku_code, sp, product_id`,
    [
      organizationId,
      v.map((x) => x.productId),
      v.map((x) => x.name),
      v.map((x) => x.sku),
      v.map((x) => x.mrp),
      v.map((x) => x.sp),
      v.map((x) => x.size),
      v.map((x) => x.containerQuantity),
      v.map((x) => x.unitQuantity),
      at,
    ],
  );
  bump('product_variant', variantRows.length);

  // Each variant's opening price version, from the local day it was created (the price history).
  const priceRows = await rows<{ id: number }>(
    client,
    `insert into variant_price (organization_id, variant_id, sp, mrp, effective_from, source, created_at, updated_at)
     select v.organization_id, v.id, v.sp, v.mrp, (v.created_at at time zone c.time_zone)::date, 3, v.created_at, v.created_at
       from product_variant v join workspace_config c on c.organization_id = v.organization_id
      where v.organization_id = $1 and v.id = any($2::int[])
      order by v.id
     returning id`,
    [organizationId, variantRows.map((r) => r.id)],
  );
  bump('variant_price', priceRows.length);

  const u = plan.users;
  const userRows = await rows<{ id: number; primary_contact_number: string }>(
    client,
    `insert into app_user (organization_id, first_name, last_name, official_email, primary_contact_number, password_hash, role_id, user_type, status, store_name, town_id, route_id, created_at, updated_at)
     select $1, first_name, last_name, email, phone, $2, role_id, user_type, status, store_name, town_id, route_id, created_at, created_at
       from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::smallint[], $9::smallint[], $10::text[], $11::int[], $12::int[], $13::timestamptz[])
            as u(first_name, last_name, email, phone, role_id, user_type, status, store_name, town_id, route_id, created_at)
     returning id, primary_contact_number`,
    [
      organizationId,
      passwordHash,
      u.map((x) => x.firstName),
      u.map((x) => x.lastName),
      u.map((x) => x.email),
      u.map((x) => x.phone),
      u.map((x) => roleId.get(x.roleName)!),
      u.map((x) => x.userType),
      u.map((x) => x.status),
      u.map((x) => x.storeName),
      u.map((x) => (x.town === null ? null : townIds[x.town])),
      u.map((x) => (x.town === null || x.route === null ? null : routeIds[x.town][x.route])),
      u.map((x) => x.createdAt),
    ],
  );
  bump('app_user', userRows.length);
  const userId = new Map(userRows.map((r) => [r.primary_contact_number, r.id]));
  const placed = (x: (typeof u)[number]) => ({
    id: userId.get(x.phone)!,
    townId: x.town === null ? null : townIds[x.town],
    routeId: x.town === null || x.route === null ? null : routeIds[x.town][x.route],
  });
  const active = u.filter((x) => x.status === ActiveStatus.ACTIVE);

  return {
    organizationId,
    distributors: active.filter((x) => x.userType === UserType.DISTRIBUTOR).map(placed),
    retailers: active.filter((x) => x.userType === UserType.RETAILER).map(placed),
    staff: active.filter((x) => x.userType <= 1).map((x) => userId.get(x.phone)!),
    productionUnits: plan.productionUnits.map((name) => unitRows.find((row) => row.name === name)!.id),
    variants: [...variantRows]
      .sort((a, b) => (a.item_sku_code < b.item_sku_code ? -1 : a.item_sku_code > b.item_sku_code ? 1 : 0))
      .map((r) => ({ id: r.id, spPaise: Math.round(Number(r.sp) * 100), productId: r.product_id, classId: classOfProduct.get(r.product_id)! })),
    towns: townIds.map((id, ti) => ({ id, routeIds: [...(routeIds[ti] ?? [])] })),
    adminUserId: userId.get(u[0].phone)!,
  };
}
