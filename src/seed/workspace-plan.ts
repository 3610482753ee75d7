import { UserType } from '../domains/users/user.entity';
import { DEFAULT_ROLE_NAMES } from '../domains/users/role.entity';
import { TRIAL_DAYS } from '../domains/workspace/signup.service';
import { WorkspacePlan, WorkspaceStatus } from '../domains/workspace/organization.entity';
import {
  CLASS_TEMPLATES,
  EXTRA_EMPLOYEE_ROLES,
  FIRST_NAMES,
  GST_STATE_CODES,
  LAST_NAMES,
  ORGANIZATION_KINDS,
  ORGANIZATION_STEMS,
  OUTLET_KINDS,
  PRODUCTION_UNIT_KINDS,
  ROUTE_NAMES,
  STORE_KINDS,
  TOWNS,
} from './names';
import { KeyedRandom, md5Hex } from './random';
import { ActiveStatus } from '../db/active-status';

/**
 * Everything of one seeded workspace except its orders, computed in JavaScript from the seed and
 * the workspace number alone (small tables: a few hundred rows). Orders are made in SQL.
 */

/** Seeded workspaces keep Indian local time, like the businesses they imitate (no DST: +05:30 all year). */
export const SEED_TIME_ZONE = 'Asia/Kolkata';
const ZONE_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
/** Days of order history: orders are dated from as-of minus this many days to the day before as-of. */
export const HISTORY_DAYS = 730;

export function workspaceSlug(seed: number, index: number): string {
  return `seed${seed}-${String(index).padStart(4, '0')}`;
}

/** The public workspace id, in signup's format (ws_ + 16 hex), derived from the seed. */
export function workspaceIdOf(seed: number, index: number): string {
  return `ws_${md5Hex(`seed:${seed}:workspace:${index}`).slice(0, 16)}`;
}

/** The workspace number of a seeded slug, or null when the slug is not one of this seed's. */
export function indexOfSlug(seed: number, slug: string): number | null {
  const m = /^seed(\d+)-(\d{4})$/.exec(slug);
  return m && Number(m[1]) === seed ? Number(m[2]) : null;
}

/** A phone number no two seeded users share, across seeds: +9, seed (5 digits), workspace (4), user (5). */
export function seededPhone(seed: number, index: number, userNo: number): string {
  return `+9${String(seed).padStart(5, '0')}${String(index).padStart(4, '0')}${String(userNo).padStart(5, '0')}`;
}

/** The instant a local day (YYYY-MM-DD) of the seeded workspaces starts, plus `seconds`. */
export function localInstant(day: string, seconds = 0): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - ZONE_OFFSET_MS + seconds * 1000);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export interface PlannedUser {
  userNo: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string;
  roleName: string;
  userType: UserType;
  status: ActiveStatus;
  storeName: string | null;
  /** Index into towns, and into that town's routes. */
  town: number | null;
  route: number | null;
  createdAt: Date;
}

export interface PlannedVariant {
  name: string;
  sku: string;
  mrp: number;
  sp: number;
  size: string;
  containerQuantity: number;
  unitQuantity: number;
}

export interface PlannedProduct {
  name: string;
  classIndex: number;
  hsn: string;
  color: string;
  description: string;
  variants: PlannedVariant[];
}

export interface WorkspacePlanRows {
  index: number;
  slug: string;
  workspaceId: string;
  displayName: string;
  plan: WorkspacePlan;
  status: WorkspaceStatus;
  maxUsers: number;
  createdAt: Date;
  trialEndsAt: Date;
  config: {
    primaryColor: string;
    secondaryColor: string;
    orgFooterName: string;
    orgAddress: string;
    gstin: string;
    fssai: string;
    contactNumber: string;
    timeZone: string;
  };
  roles: Array<{ name: string; description: string }>;
  towns: Array<{ name: string; routes: string[]; lat: number; lng: number }>;
  outlets: Array<{ name: string; town: number; route: number; phone: string; lat: number | null; lng: number | null; taggedAt: Date | null }>;
  productionUnits: string[];
  classes: Array<{ name: string; unit: string }>;
  products: PlannedProduct[];
  users: PlannedUser[];
}

/** How many users of each kind a workspace with this many orders has. */
export function userCounts(ordersPerOrg: number): { admins: number; employees: number; distributors: number; retailers: number } {
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  return {
    admins: 2,
    employees: clamp(6 + Math.round(ordersPerOrg / 600), 6, 200),
    distributors: clamp(3 + Math.round(ordersPerOrg / 1500), 3, 100),
    retailers: clamp(12 + Math.round(ordersPerOrg / 40), 12, 3000),
  };
}

const PALETTE = ['#1F4E79', '#2E7D32', '#6A1B9A', '#C62828', '#00838F', '#EF6C00', '#283593', '#4E342E'];
const ACCENTS = ['#F2A900', '#FFD54F', '#80CBC4', '#FF8A65', '#AED581', '#90CAF9'];
const PAN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const roundHalf = (v: number) => Math.round(v * 2) / 2;

/** A realistic-looking Indian mobile number (not unique; outlets and contact numbers only). */
function mobile(r: KeyedRandom, key: string): string {
  return `+91${r.between(`${key}:lead`, 6, 9)}${r.digits(key, 9)}`;
}

/** The plan of seeded workspace `index` (1-based) for a seed. */
export function planWorkspace(seed: number, index: number, ordersPerOrg: number, asOf: string): WorkspacePlanRows {
  const r = new KeyedRandom(`${seed}:${index}`);
  const slug = workspaceSlug(seed, index);
  const createdAt = localInstant(addDays(asOf, -HISTORY_DAYS - 1), 9 * 3600 + r.below('org:minute', 60) * 60);
  const displayName = `${r.pick('org:stem', ORGANIZATION_STEMS)} ${r.pick('org:kind', ORGANIZATION_KINDS)}`;

  // Towns (and their routes) of one distribution area.
  const townRows = r.sample('towns', TOWNS, r.between('towns:count', 4, 8));
  const towns = townRows.map((t, i) => ({
    name: t.name,
    lat: t.lat,
    lng: t.lng,
    routes: r.sample(`town:${i}:routes`, ROUTE_NAMES, r.between(`town:${i}:routes:count`, 2, 5)),
  }));
  const state = townRows[0].state;

  const outlets: WorkspacePlanRows['outlets'] = [];
  towns.forEach((town, ti) => {
    town.routes.forEach((_, ri) => {
      const key = `outlet:${ti}:${ri}`;
      const names = new Set<string>();
      const count = r.between(`${key}:count`, 3, 10);
      for (let o = 0; o < count; o++) {
        let name = `${r.pick(`${key}:${o}:first`, FIRST_NAMES)} ${r.pick(`${key}:${o}:kind`, OUTLET_KINDS)}`;
        for (let n = 2; names.has(name); n++) name = `${name.replace(/ \d+$/, '')} ${n}`;
        names.add(name);
        const tagged = r.chance(`${key}:${o}:tagged`, 0.65);
        outlets.push({
          name,
          town: ti,
          route: ri,
          phone: mobile(r, `${key}:${o}:phone`),
          lat: tagged ? Math.round((town.lat + (r.unit(`${key}:${o}:lat`) - 0.5) * 0.1) * 1e6) / 1e6 : null,
          lng: tagged ? Math.round((town.lng + (r.unit(`${key}:${o}:lng`) - 0.5) * 0.1) * 1e6) / 1e6 : null,
          taggedAt: tagged ? localInstant(addDays(asOf, -1 - r.below(`${key}:${o}:day`, 700)), 8 * 3600 + r.below(`${key}:${o}:second`, 11 * 3600)) : null,
        });
      }
    });
  });

  const productionUnits = r
    .sample('units', PRODUCTION_UNIT_KINDS, r.between('units:count', 2, 4))
    .map((kind, i) => `${towns[i % towns.length].name} ${kind}`);

  // Catalogue: product classes, products, variants with their unit quantity and prices.
  const templates = r.sample('classes', CLASS_TEMPLATES, r.between('classes:count', 6, 10));
  const classes = templates.map((t) => ({ name: t.name, unit: t.unit }));
  const products: PlannedProduct[] = [];
  templates.forEach((t, ci) => {
    const chosen = r.sample(`class:${ci}:products`, t.products, r.between(`class:${ci}:products:count`, Math.min(2, t.products.length), t.products.length));
    for (const name of chosen) {
      const pi = products.length + 1;
      const pk = `product:${pi}`;
      const factor = 0.85 + 0.45 * r.unit(`${pk}:factor`);
      const packs = t.packs.filter((_, k) => k === 0 || r.chance(`${pk}:pack:${k}`, 0.75));
      const initials = name.split(/[\s-]+/).map((w) => w[0].toUpperCase()).join('');
      products.push({
        name,
        classIndex: ci,
        hsn: t.hsn,
        color: t.color,
        description: `${name}, ${packs.map((p) => p.label).join(' / ')}`,
        variants: packs.map((p) => {
          const premium = p.unitQuantity < 0.25 ? 1.15 : p.unitQuantity >= 5 ? 0.92 : 1;
          const mrp = Math.max(5, roundHalf(t.pricePerUnit * p.unitQuantity * factor * premium));
          const sp = Math.max(1, Math.min(mrp, roundHalf(mrp * (0.88 + 0.09 * r.unit(`${pk}:${p.label}:sp`)))));
          return {
            name: p.label,
            sku: `${initials}${pi}-${p.label.replace(/[^0-9a-z]/gi, '').toUpperCase()}`,
            mrp,
            sp,
            size: p.label,
            containerQuantity: p.perContainer,
            unitQuantity: p.unitQuantity,
          };
        }),
      });
    }
  });

  // People: two admins (the first as signup makes it), employees of every role, distributors, retailers.
  const counts = userCounts(ordersPerOrg);
  const users: PlannedUser[] = [];
  const employeeRoles = ['Employee', ...EXTRA_EMPLOYEE_ROLES.map((e) => e.name)];
  const add = (userType: UserType, roleName: string, extra: Partial<PlannedUser> = {}) => {
    const userNo = users.length + 1;
    const firstName = r.pick(`user:${userNo}:first`, FIRST_NAMES);
    const lastName = r.pick(`user:${userNo}:last`, LAST_NAMES);
    const hasEmail = userType <= UserType.EMPLOYEE || r.chance(`user:${userNo}:email`, 0.7);
    users.push({
      userNo,
      firstName,
      lastName,
      email: hasEmail ? `${firstName}.${lastName}${userNo}@${slug}.example`.toLowerCase() : null,
      phone: seededPhone(seed, index, userNo),
      roleName,
      userType,
      status: ActiveStatus.ACTIVE,
      storeName: null,
      town: null,
      route: null,
      createdAt: new Date(createdAt.getTime() + userNo * 7000),
      ...extra,
    });
  };
  const placeOf = (key: string) => {
    const town = r.below(`${key}:town`, towns.length);
    return { town, route: r.below(`${key}:route`, towns[town].routes.length) };
  };
  for (let i = 0; i < counts.admins; i++) add(UserType.ADMIN, 'Admin');
  for (let i = 0; i < counts.employees; i++) {
    // Every role once, then the field roles most.
    const roleName = i < employeeRoles.length ? employeeRoles[i] : r.pick(`employee:${i}:role`, ['Sales Executive', 'Sales Executive', 'Delivery Executive', 'Delivery Executive', 'Employee', 'Accountant', 'Area Manager']);
    const field = roleName === 'Sales Executive' || roleName === 'Delivery Executive';
    add(UserType.EMPLOYEE, roleName, {
      // One employee has left (inactive), as in any real workspace.
      status: i === counts.employees - 1 ? ActiveStatus.INACTIVE : ActiveStatus.ACTIVE,
      ...(field ? placeOf(`employee:${i}`) : {}),
    });
  }
  for (let i = 0; i < counts.distributors; i++) {
    const town = i % towns.length;
    add(UserType.DISTRIBUTOR, 'Distributor', {
      storeName: `${r.pick(`distributor:${i}:name`, LAST_NAMES)} ${r.pick(`distributor:${i}:kind`, ['Agencies', 'Distributors', 'Enterprises', 'Traders'])}`,
      town,
    });
  }
  for (let i = 0; i < counts.retailers; i++) {
    add(UserType.RETAILER, 'Retailer', {
      storeName: `${r.pick(`retailer:${i}:name`, FIRST_NAMES)} ${r.pick(`retailer:${i}:kind`, STORE_KINDS)}`,
      status: r.chance(`retailer:${i}:inactive`, 0.04) ? ActiveStatus.INACTIVE : ActiveStatus.ACTIVE,
      ...placeOf(`retailer:${i}`),
    });
  }
  const activeUsers = users.filter((u) => u.status === ActiveStatus.ACTIVE).length;

  const pan = `${r.chars('pan:letters', 5, PAN_LETTERS)}${r.digits('pan:digits', 4)}${r.chars('pan:last', 1, PAN_LETTERS)}`;
  return {
    index,
    slug,
    workspaceId: workspaceIdOf(seed, index),
    displayName,
    plan: r.pick('org:plan', [WorkspacePlan.STARTER, WorkspacePlan.PRO, WorkspacePlan.PRO, WorkspacePlan.PROFESSIONAL]),
    // Active, not trial: a trial would end and lock API keys out (402) while the data is in use.
    status: WorkspaceStatus.ACTIVE,
    maxUsers: activeUsers + 50,
    createdAt,
    trialEndsAt: new Date(createdAt.getTime() + TRIAL_DAYS * DAY_MS),
    config: {
      primaryColor: r.pick('config:primary', PALETTE),
      secondaryColor: r.pick('config:secondary', ACCENTS),
      orgFooterName: displayName,
      orgAddress: `${r.between('address:number', 1, 400)}, ${towns[0].routes[0]}, ${towns[0].name}, ${state} ${r.between('address:pin', 500001, 599999)}`,
      gstin: `${GST_STATE_CODES[state] ?? '29'}${pan}1Z${r.chars('gstin:check', 1, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`,
      fssai: `1${r.digits('fssai', 13)}`,
      contactNumber: mobile(r, 'config:contact'),
      timeZone: SEED_TIME_ZONE,
    },
    roles: [
      ...DEFAULT_ROLE_NAMES.map((name) => ({ name, description: '' })),
      ...EXTRA_EMPLOYEE_ROLES,
    ],
    towns,
    outlets,
    productionUnits,
    classes,
    products,
    users,
  };
}
