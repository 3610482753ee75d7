import { describe, expect, it } from 'vitest';
import { joinSql, raw, sql, tenantSql } from '../../src/db/tenant-sql';

describe('tenant-sql', () => {
  it('binds every value in order, splicing nested pieces with theirs', () => {
    const t = tenantSql(7, 'o');
    const statement = sql`select o.id from sales_order o ${t.join('app_user', 'c', sql`c.id = o.customer_id and c.status = ${1}`)}
      where ${joinSql([t.owns(), sql`o.status = ${2}`, sql`o.order_code ilike ${'%x?%'}`], ' and ')} limit ${20}`;
    expect(statement.values).toEqual([1, 7, 2, '%x?%', 20]);
    expect(statement.text.replace(/\s+/g, ' ')).toBe(
      'select o.id from sales_order o join app_user c on c.id = o.customer_id and c.status = ? and c.organization_id = o.organization_id ' +
        'where o.organization_id = ? and o.status = ? and o.order_code ilike ? limit ?',
    );
    expect(statement.pgText.replace(/\s+/g, ' ')).toContain('c.status = $1 and c.organization_id = o.organization_id where o.organization_id = $2 and o.status = $3 and o.order_code ilike $4 limit $5');
  });

  it('matches every joined table on organization_id to the root, or to another root', () => {
    const t = tenantSql(3, 'i');
    expect(t.leftJoin('town', 't', 't.id = o.town_id').text).toBe('left join town t on t.id = o.town_id and t.organization_id = i.organization_id');
    expect(t.join('workspace_config', 'wc').text).toBe('join workspace_config wc on wc.organization_id = i.organization_id');
    expect(t.rooted('page').join('sales_order', 'o', 'o.id = page.id').text).toBe(
      'join sales_order o on o.id = page.id and o.organization_id = page.organization_id',
    );
    expect(t.owns('v').values).toEqual([3]);
    expect(raw('x').values).toEqual([]);
  });

  it('refuses to build without an organization', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, undefined as unknown as number, null as unknown as number, '1' as unknown as number]) {
      expect(() => tenantSql(bad, 'o'), String(bad)).toThrow(/organization id/);
    }
  });
});
