import { joinSql, sql, tenantSql, type Sql } from '../../db/tenant-sql';
import { ActiveStatus } from '../../db/active-status';
import { defineExport, localTimestamp } from '../exports/export-source';
import { USER_TYPE_NAMES, UserType } from './user.entity';

const capitalized = (name: string) => name[0].toUpperCase() + name.slice(1);
const typeLabel = `case u.user_type ${Object.entries(USER_TYPE_NAMES)
  .map(([name, code]) => `when ${code} then '${capitalized(name)}'`)
  .join(' ')} end`;
const typeName = (code: number) => capitalized(Object.keys(USER_TYPE_NAMES).find((name) => USER_TYPE_NAMES[name] === code)!);

/** One row per user, in the order they were added. */
export const usersExport = defineExport<{ userType?: UserType; userStatus?: ActiveStatus }>({
  kind: 'users',
  description: 'one row per user',
  title: 'Users',
  filters: {
    userType: { graphqlType: () => UserType, description: 'of this type' },
    userStatus: { graphqlType: () => ActiveStatus, description: 'active (1) or inactive (0)' },
  },
  orientation: 'landscape',
  columns: [
    { key: 'id', header: 'ID', type: 'integer', width: 8 },
    { key: 'name', header: 'Name', type: 'text', width: 24 },
    { key: 'user_type', header: 'Type', type: 'text', width: 12 },
    { key: 'phone', header: 'Phone', type: 'text', width: 16 },
    { key: 'email', header: 'E-mail', type: 'text', width: 28 },
    { key: 'store_name', header: 'Store', type: 'text', width: 22 },
    { key: 'town', header: 'Town', type: 'text', width: 16 },
    { key: 'route', header: 'Route', type: 'text', width: 16 },
    { key: 'role', header: 'Role', type: 'text', width: 16 },
    { key: 'status', header: 'Status', type: 'text', width: 10 },
    { key: 'created_at', header: 'Added at', type: 'datetime', width: 17 },
  ],
  rows(organizationId, f) {
    const t = tenantSql(organizationId, 'u');
    const where: Sql[] = [t.owns()];
    if (f.userType !== undefined) where.push(sql`u.user_type = ${f.userType}`);
    if (f.userStatus !== undefined) where.push(sql`u.status = ${f.userStatus}`);
    return {
      select: `u.id, trim(u.first_name || ' ' || u.last_name) as name, ${typeLabel} as user_type,
        u.primary_contact_number as phone, u.official_email as email, u.store_name, t.name as town,
        r.name as route, ro.name as role, case u.status when ${ActiveStatus.ACTIVE} then 'Active' else 'Inactive' end as status,
        ${localTimestamp('u.created_at')} as created_at`,
      from: sql`app_user u
        ${t.join('workspace_config', 'wc')}
        ${t.leftJoin('role', 'ro', 'ro.id = u.role_id')}
        ${t.leftJoin('town', 't', 't.id = u.town_id')}
        ${t.leftJoin('route', 'r', 'r.id = u.route_id')}
        where ${joinSql(where, ' and ')}`,
      orderBy: 'u.id',
      count: sql`app_user u ${t.join('workspace_config', 'wc')} where ${joinSql(where, ' and ')}`,
    };
  },
  describe(f) {
    return [
      ...(f.userType !== undefined ? [`Type: ${typeName(f.userType)}`] : []),
      ...(f.userStatus !== undefined ? [`Status: ${f.userStatus === ActiveStatus.ACTIVE ? 'Active' : 'Inactive'}`] : []),
    ];
  },
});
