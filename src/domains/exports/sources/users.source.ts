import { ActiveStatus } from '../../../shared/active-status';
import { USER_TYPE_NAMES } from '../../users/user.entity';
import { localTimestamp, type ExportSource } from './export-source';

const capitalized = (name: string) => name[0].toUpperCase() + name.slice(1);
const typeLabel = `case u.user_type ${Object.entries(USER_TYPE_NAMES)
  .map(([name, code]) => `when ${code} then '${capitalized(name)}'`)
  .join(' ')} end`;
const typeName = (code: number) => capitalized(Object.keys(USER_TYPE_NAMES).find((name) => USER_TYPE_NAMES[name] === code)!);

/** One row per user, in the order they were added. */
export const usersSource: ExportSource = {
  title: 'Users',
  filters: ['userType', 'userStatus'],
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
    const where = ['u.organization_id = ?'];
    const params: unknown[] = [organizationId];
    if (f.userType !== undefined) {
      where.push('u.user_type = ?');
      params.push(f.userType);
    }
    if (f.userStatus !== undefined) {
      where.push('u.status = ?');
      params.push(f.userStatus);
    }
    return {
      select: `u.id, trim(u.first_name || ' ' || u.last_name) as name, ${typeLabel} as user_type,
        u.primary_contact_number as phone, u.official_email as email, u.store_name, t.name as town,
        r.name as route, ro.name as role, case u.status when 1 then 'Active' else 'Inactive' end as status,
        ${localTimestamp('u.created_at')} as created_at`,
      from: `app_user u
        join workspace_config wc on wc.organization_id = u.organization_id
        left join role ro on ro.id = u.role_id
        left join town t on t.id = u.town_id
        left join route r on r.id = u.route_id
        where ${where.join(' and ')}`,
      orderBy: 'u.id',
      params,
    };
  },
  describe(f) {
    return [
      ...(f.userType !== undefined ? [`Type: ${typeName(f.userType)}`] : []),
      ...(f.userStatus !== undefined ? [`Status: ${f.userStatus === ActiveStatus.ACTIVE ? 'Active' : 'Inactive'}`] : []),
    ];
  },
};
