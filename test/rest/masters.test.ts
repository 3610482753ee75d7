import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

type Body = Record<string, unknown>;

/** One master kind as seen over REST. */
interface Kind {
  path: string;
  /** The name field over REST. */
  name: string;
  /** Extra fields sent on create (may need a town of the workspace). */
  extra(ws: Setup): Body;
  /** Extra fields of the response for a record created with extra(). */
  extraOut(ws: Setup): Body;
  /** Extra fields of the response when created with only the name. */
  defaultsOut: Body | null;
  /** A change of the extra fields for PUT, and what the response then shows. */
  change: ((ws: Setup) => { send: Body; shows: Body }) | null;
}

interface Setup {
  ws: Workspace;
  townId: number;
  townName: string;
  otherTownId: number;
  otherTownName: string;
}

const KINDS: Kind[] = [
  {
    path: 'product-classes',
    name: 'product_class',
    extra: () => ({ unit: 'litre' }),
    extraOut: () => ({ unit: 'litre' }),
    defaultsOut: { unit: 'piece' },
    change: () => ({ send: { unit: 'kg' }, shows: { unit: 'kg' } }),
  },
  {
    path: 'roles',
    name: 'role_name',
    extra: () => ({ description: 'Sells things' }),
    extraOut: () => ({ description: 'Sells things' }),
    defaultsOut: { description: '' },
    change: () => ({ send: { description: 'Changed' }, shows: { description: 'Changed' } }),
  },
  { path: 'towns', name: 'town_name', extra: () => ({}), extraOut: () => ({}), defaultsOut: {}, change: null },
  {
    path: 'routes',
    name: 'route_name',
    extra: (s) => ({ town_id: s.townId }),
    extraOut: (s) => ({ town_id: s.townId, town_name: s.townName }),
    defaultsOut: null,
    change: (s) => ({ send: { town_id: s.otherTownId }, shows: { town_id: s.otherTownId, town_name: s.otherTownName } }),
  },
  { path: 'production-units', name: 'production_unit_name', extra: () => ({}), extraOut: () => ({}), defaultsOut: {}, change: null },
];

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('REST /api/v1/masters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const url = (kind: Kind, suffix = '') => `/api/v1/masters/${kind.path}${suffix}`;

  async function makeSetup(): Promise<Setup> {
    const ws = await createWorkspace(t);
    const towns = [];
    for (const town_name of [`Town ${unique()}`, `Town ${unique()}`]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/masters/towns', token: ws.token, payload: { town_name } });
      expect(res.statusCode, res.body).toBe(201);
      towns.push({ id: res.json().data.id as number, name: town_name });
    }
    return { ws, townId: towns[0].id, townName: towns[0].name, otherTownId: towns[1].id, otherTownName: towns[1].name };
  }

  describe.each(KINDS)('/masters/$path', (kind) => {
    let s: Setup;
    let other: Setup;
    let employeeToken: string;
    let distributorToken: string;
    /** Names present before this block created anything (default roles, the setup towns). */
    let baseline: string[];

    const get = (token: string | undefined, query = '') => t.request({ method: 'GET', url: url(kind, query), token });
    const create = (token: string | undefined, payload: Body, ws = s) =>
      t.request({ method: 'POST', url: url(kind), token, payload: { ...kind.extra(ws), ...payload } });
    const put = (token: string | undefined, id: number | string, payload: Body) =>
      t.request({ method: 'PUT', url: url(kind, `/${id}`), token, payload });
    const namesOf = (res: { json(): { data: Body[] } }) => res.json().data.map((r) => r[kind.name] as string);
    const all = async (): Promise<Body[]> => (await get(s.ws.token, '?limit=100')).json().data;

    async function createOk(name: string, extra: Body = {}): Promise<Body> {
      const res = await create(s.ws.token, { [kind.name]: name, ...extra });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    }

    beforeAll(async () => {
      s = await makeSetup();
      other = await makeSetup();
      employeeToken = (await createUser(t, s.ws, UserType.EMPLOYEE)).token;
      distributorToken = (await createUser(t, s.ws, UserType.DISTRIBUTOR)).token;
      baseline = namesOf(await get(s.ws.token, '?limit=100'));
      for (const name of ['Mango', 'Apple', 'Banana']) await createOk(name);
      await createOk('Cherry', { status: 0 });
    });

    it('POST answers 201 with message and the record', async () => {
      const res = await create(s.ws.token, { [kind.name]: '  Kiwi  ' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        response_code: 201,
        message: expect.any(String),
        data: { id: expect.any(Number), [kind.name]: 'Kiwi', ...kind.extraOut(s), status: 1, createdAt: expect.stringMatching(ISO) },
      });
      const listed = (await all()).find((r) => r.id === res.json().data.id);
      expect(listed).toEqual(res.json().data);
    });

    it('lists sorted by name with the documented shape and pagination', async () => {
      const res = await get(s.ws.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'response_code']);
      const expected = [...baseline, 'Apple', 'Banana', 'Cherry', 'Kiwi', 'Mango'].sort();
      expect(namesOf(res)).toEqual(expected);
      expect(body.pagination).toEqual({ total: expected.length, page: 1, limit: 20, total_pages: 1 });
      const apple = body.data.find((r: Body) => r[kind.name] === 'Apple');
      expect(apple).toEqual({ id: expect.any(Number), [kind.name]: 'Apple', ...kind.extraOut(s), status: 1, createdAt: expect.stringMatching(ISO) });

      const page2 = await get(s.ws.token, '?limit=2&page=2');
      expect(page2.statusCode).toBe(200);
      expect(namesOf(page2)).toEqual(expected.slice(2, 4));
      expect(page2.json().pagination).toEqual({ total: expected.length, page: 2, limit: 2, total_pages: Math.ceil(expected.length / 2) });
    });

    it.each([
      ['limit=101', /^limit must be <= 100$/],
      ['limit=0', /^limit /],
      ['page=abc', /^page /],
      ['status=2', /^status /],
    ])('?%s → 400', async (query, message) => {
      const res = await get(s.ws.token, `?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
    });

    it('filters by search (case-insensitive, literal wildcards) and status', async () => {
      expect(namesOf(await get(s.ws.token, '?search=aNaN'))).toEqual(['Banana']);
      expect(namesOf(await get(s.ws.token, `?search=${encodeURIComponent('%')}`))).toEqual([]);
      expect(namesOf(await get(s.ws.token, '?search=_'))).toEqual([]);
      const inactive = await get(s.ws.token, '?status=0');
      expect(namesOf(inactive)).toEqual(['Cherry']);
      expect(inactive.json().data[0].status).toBe(0);
      expect(inactive.json().pagination.total).toBe(1);
      expect(namesOf(await get(s.ws.token, '?status=1'))).not.toContain('Cherry');
      expect(namesOf(await get(s.ws.token, '?status=1&search=an'))).toEqual(['Banana', 'Mango']);
    });

    it('PUT changes name and status; omitted fields stay; persisted', async () => {
      const rec = await createOk(`Plum ${unique()}`);
      const name = `Pear ${unique()}`;
      const res = await put(s.ws.token, rec.id as number, { [kind.name]: name, status: 0 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ response_code: 200, message: expect.any(String), data: { ...rec, [kind.name]: name, status: 0 } });
      expect((await all()).find((r) => r.id === rec.id)).toEqual({ ...rec, [kind.name]: name, status: 0 });

      // Only the status: the name stays.
      const back = await put(s.ws.token, rec.id as number, { status: 1 });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data).toEqual({ ...rec, [kind.name]: name, status: 1 });

      if (kind.change) {
        const { send, shows } = kind.change(s);
        const changed = await put(s.ws.token, rec.id as number, send);
        expect(changed.statusCode, changed.body).toBe(200);
        expect(changed.json().data).toEqual({ ...rec, [kind.name]: name, status: 1, ...shows });
        expect((await all()).find((r) => r.id === rec.id)).toEqual({ ...rec, [kind.name]: name, status: 1, ...shows });
      }
    });

    it('PUT with an empty body or bad fields → 400, nothing changes', async () => {
      const rec = await createOk(`Fig ${unique()}`);
      for (const [payload, message] of [
        [{}, /./],
        [{ [kind.name]: '' }, new RegExp(`^${kind.name} `)],
        [{ [kind.name]: '   ' }, new RegExp(`^${kind.name} `)],
        [{ status: 2 }, /^status /],
        [{ status: '1' }, /^status /],
      ] as Array<[Body, RegExp]>) {
        const res = await put(s.ws.token, rec.id as number, payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
      }
      expect((await all()).find((r) => r.id === rec.id)).toEqual(rec);
    });

    it('POST without a valid name → 400 naming the field, nothing created', async () => {
      const before = (await all()).length;
      for (const payload of [{}, { [kind.name]: '' }, { [kind.name]: '   ' }, { [kind.name]: 42 }]) {
        const res = await create(s.ws.token, payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(new RegExp(`^${kind.name} `))));
      }
      const bad = await create(s.ws.token, { [kind.name]: `Ok ${unique()}`, status: 5 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^status /);
      expect((await all()).length).toBe(before);
    });

    if (kind.defaultsOut) {
      const defaults = kind.defaultsOut;
      it('POST with only the name uses the defaults', async () => {
        const res = await t.request({ method: 'POST', url: url(kind), token: s.ws.token, payload: { [kind.name]: `Bare ${unique()}` } });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().data).toEqual({ id: expect.any(Number), [kind.name]: expect.any(String), ...defaults, status: 1, createdAt: expect.stringMatching(ISO) });
      });
    }

    it('a duplicate name (any letter case) → 409, also when renaming onto it', async () => {
      const before = (await all()).length;
      const dup = await create(s.ws.token, { [kind.name]: 'Apple' });
      expect(dup.statusCode, dup.body).toBe(409);
      expect(dup.json()).toEqual({ response_code: 409, message: expect.any(String) });
      expect((await create(s.ws.token, { [kind.name]: '  Apple ' })).statusCode).toBe(409);
      expect((await create(s.ws.token, { [kind.name]: 'APPLE' })).statusCode).toBe(409); // case-insensitive
      expect((await all()).length).toBe(before);

      const rec = await createOk(`Lime ${unique()}`);
      const rename = await put(s.ws.token, rec.id as number, { [kind.name]: 'Apple' });
      expect(rename.statusCode, rename.body).toBe(409);
      // Keeping its own name is no clash.
      const same = await put(s.ws.token, rec.id as number, { [kind.name]: rec[kind.name], status: 1 });
      expect(same.statusCode, same.body).toBe(200);
      expect((await all()).find((r) => r.id === rec.id)).toEqual(rec);

      // The same name in another workspace is fine.
      const elsewhere = await create(other.ws.token, { [kind.name]: 'Apple' }, other);
      expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    });

    it("PUT on an unknown id or another workspace's id → 404, the other record unchanged", async () => {
      const foreign = (await create(other.ws.token, { [kind.name]: `Foreign ${unique()}` }, other)).json().data;
      for (const id of [99_999_999, foreign.id]) {
        const res = await put(s.ws.token, id, { [kind.name]: `Hijack ${unique()}` });
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ response_code: 404, message: expect.any(String) });
      }
      const otherList = (await get(other.ws.token, '?limit=100')).json().data as Body[];
      expect(otherList.find((r) => r.id === foreign.id)).toEqual(foreign);
      expect((await put(s.ws.token, 'abc', { status: 1 })).statusCode).toBe(400);
    });

    it("workspace B's list never shows A's records", async () => {
      const mine = new Set((await all()).map((r) => r.id));
      const theirs = (await get(other.ws.token, '?limit=100')).json().data as Body[];
      expect(theirs.some((r) => mine.has(r.id))).toBe(false);
      expect(theirs.map((r) => r[kind.name])).not.toContain('Mango');
    });

    it('non-admins may read (200) but not POST or PUT (403); no token → 401', async () => {
      const rec = await createOk(`Date ${unique()}`);
      const before = (await all()).length;
      for (const token of [employeeToken, distributorToken]) {
        const list = await get(token);
        expect(list.statusCode, list.body).toBe(200);
        expect(list.json().pagination.total).toBe(before);
        const post = await create(token, { [kind.name]: `Nope ${unique()}` });
        expect(post.statusCode, post.body).toBe(403);
        expect(post.json()).toEqual({ response_code: 403, message: expect.any(String) });
        const change = await put(token, rec.id as number, { status: 0 });
        expect(change.statusCode, change.body).toBe(403);
      }
      expect((await all()).length).toBe(before);
      expect((await all()).find((r) => r.id === rec.id)).toEqual(rec);
      expect((await get(undefined)).statusCode).toBe(401);
      expect((await create(undefined, { [kind.name]: 'Anon' })).statusCode).toBe(401);
      expect((await put(undefined, rec.id as number, { status: 0 })).statusCode).toBe(401);
    });
  });

  describe('roles', () => {
    it("signup's four default roles are listed", async () => {
      const ws = await createWorkspace(t);
      const res = await t.request({ method: 'GET', url: '/api/v1/masters/roles', token: ws.token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(
        ['Admin', 'Distributor', 'Employee', 'Retailer'].map((role_name) => ({
          id: ws.roles[role_name],
          role_name,
          description: '',
          status: 1,
          createdAt: expect.stringMatching(ISO),
        })),
      );
      expect(res.json().pagination).toEqual({ total: 4, page: 1, limit: 20, total_pages: 1 });
    });
  });

  describe('routes and towns', () => {
    let s: Setup;
    let other: Setup;
    beforeAll(async () => {
      s = await makeSetup();
      other = await makeSetup();
    });
    const post = (payload: Body) => t.request({ method: 'POST', url: '/api/v1/masters/routes', token: s.ws.token, payload });
    const routeCount = async () => (await t.request({ method: 'GET', url: '/api/v1/masters/routes', token: s.ws.token })).json().pagination.total;

    it('the same route name is allowed in another town but 409 in the same town', async () => {
      const a = await post({ route_name: 'Ring Road', town_id: s.townId });
      expect(a.statusCode, a.body).toBe(201);
      const b = await post({ route_name: 'Ring Road', town_id: s.otherTownId });
      expect(b.statusCode, b.body).toBe(201);
      expect(b.json().data).toMatchObject({ route_name: 'Ring Road', town_id: s.otherTownId, town_name: s.otherTownName });
      const before = await routeCount();
      const c = await post({ route_name: 'Ring Road', town_id: s.townId });
      expect(c.statusCode, c.body).toBe(409);
      expect(await routeCount()).toBe(before);
      // Moving one onto the other's town clashes too.
      const move = await t.request({ method: 'PUT', url: `/api/v1/masters/routes/${b.json().data.id}`, token: s.ws.token, payload: { town_id: s.townId } });
      expect(move.statusCode, move.body).toBe(409);
    });

    it("a missing, unknown or another workspace's town_id → 400 town_id, nothing created", async () => {
      const before = await routeCount();
      for (const [payload, message] of [
        [{ route_name: `R ${unique()}` }, /^town_id is required$/],
        [{ route_name: `R ${unique()}`, town_id: 99_999_999 }, /^town_id /],
        [{ route_name: `R ${unique()}`, town_id: other.townId }, /^town_id /],
        [{ route_name: `R ${unique()}`, town_id: String(s.townId) }, /^town_id /],
      ] as Array<[Body, RegExp]>) {
        const res = await post(payload);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
      }
      expect(await routeCount()).toBe(before);
      const rec = (await post({ route_name: `R ${unique()}`, town_id: s.townId })).json().data;
      const move = await t.request({ method: 'PUT', url: `/api/v1/masters/routes/${rec.id}`, token: s.ws.token, payload: { town_id: other.townId } });
      expect(move.statusCode, move.body).toBe(400);
      expect(move.json().message).toMatch(/^town_id /);
    });

    it("a renamed town shows its new name on its routes", async () => {
      const rec = (await post({ route_name: `R ${unique()}`, town_id: s.townId })).json().data;
      const renamed = await t.request({ method: 'PUT', url: `/api/v1/masters/towns/${s.townId}`, token: s.ws.token, payload: { town_name: 'Renamed Town' } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const list = await t.request({ method: 'GET', url: '/api/v1/masters/routes?limit=100', token: s.ws.token });
      expect(list.json().data.find((r: Body) => r.id === rec.id)).toMatchObject({ town_id: s.townId, town_name: 'Renamed Town' });
    });
  });
});
