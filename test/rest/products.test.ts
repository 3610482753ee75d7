import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/** Products: list, filters, create and its validation, roles and tenant isolation. */
describe('REST /api/v1/products', () => {
  let t: TestApp;
  let wsA: Workspace;
  let wsB: Workspace;
  let classA: { id: number; name: string };
  let classB: { id: number; name: string };
  let employeeToken: string;
  let distributorToken: string;

  async function createClass(ws: Workspace): Promise<{ id: number; name: string }> {
    const name = `Class ${unique()}`;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/masters/product-classes',
      token: ws.token,
      payload: { product_class: name, unit: 'litre' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data.id, name };
  }

  const post = (token: string | undefined, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/v1/products', token, payload });

  const list = (token: string | undefined, query = '') =>
    t.request({ method: 'GET', url: `/api/v1/products${query}`, token });

  async function countRows(table: 'product' | 'product_variant', organizationId: number): Promise<number> {
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from ${table} where organization_id = ?`, [organizationId]);
    return rows[0].n;
  }

  const counts = async (ws: Workspace) => [await countRows('product', ws.organizationId), await countRows('product_variant', ws.organizationId)];

  /** A minimal valid body for workspace A. */
  const validBody = (extra: Record<string, unknown> = {}) => ({
    product_name: `Product ${unique()}`,
    product_class_id: classA.id,
    ...extra,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    wsA = await createWorkspace(t);
    wsB = await createWorkspace(t);
    classA = await createClass(wsA);
    classB = await createClass(wsB);
    employeeToken = (await createUser(t, wsA, UserType.EMPLOYEE)).token;
    distributorToken = (await createUser(t, wsA, UserType.DISTRIBUTOR)).token;
  });
  afterAll(() => t.close());

  describe('POST', () => {
    it('creates a product with variants: 201 with message and the full product', async () => {
      const n = unique();
      const res = await post(wsA.token, {
        product_name: `  Full Cream Milk ${n}  `,
        product_class_id: classA.id,
        product_hsn: '0401',
        product_color_code: '#1a2b3c',
        product_description: 'Pasteurised full cream milk',
        product_image: 'https://cdn.example.test/milk.png',
        variants: [
          { variant_name: '500 ml', item_sku_code: `FCM-500-${n}`, mrp: 32, sp: 30.5, variant_size: '500ml', variant_quantity: 1, container_quantity: 24, unit_quantity: 0.5 },
          { variant_name: '1 l', item_sku_code: `FCM-1000-${n}`, mrp: 64, sp: 64 },
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        response_code: 201,
        message: expect.any(String),
        data: {
          id: expect.any(Number),
          product_name: `Full Cream Milk ${n}`,
          product_class_id: classA.id,
          product_hsn: '0401',
          product_color_code: '#1A2B3C',
          product_description: 'Pasteurised full cream milk',
          product_image: 'https://cdn.example.test/milk.png',
          status: 1,
          ProductClass: { id: classA.id, product_class: classA.name },
          ProductVariants: [
            {
              id: expect.any(Number),
              variant_name: '500 ml',
              item_sku_code: `FCM-500-${n}`,
              mrp: 32,
              sp: 30.5,
              variant_size: '500ml',
              variant_quantity: 1,
              container_quantity: 24,
              unit_quantity: 0.5,
              status: 1,
            },
            {
              id: expect.any(Number),
              variant_name: '1 l',
              item_sku_code: `FCM-1000-${n}`,
              mrp: 64,
              sp: 64,
              variant_size: '',
              variant_quantity: 1,
              container_quantity: 1,
              unit_quantity: 1,
              status: 1,
            },
          ],
        },
      });
      expect(body.message.length).toBeGreaterThan(0);

      // Persisted: the list shows exactly what the create returned.
      const again = await list(wsA.token, `?search=${encodeURIComponent(`Full Cream Milk ${n}`)}`);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual([body.data]);
    });

    it('creates a product without variants, with defaults for the optional fields', async () => {
      const payload = validBody();
      const res = await post(wsA.token, payload);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toEqual({
        id: expect.any(Number),
        product_name: payload.product_name,
        product_class_id: classA.id,
        product_hsn: '',
        product_color_code: '#000000',
        product_description: '',
        product_image: null,
        status: 1,
        ProductClass: { id: classA.id, product_class: classA.name },
        ProductVariants: [],
      });
    });

    it('unit_quantity: how much of the class’s unit one piece holds, up to three decimals, default 1', async () => {
      const quantities = [0.5, 0.001, 12.345, 1_000_000, 2];
      const res = await post(
        wsA.token,
        validBody({
          variants: [
            ...quantities.map((q) => ({ variant_name: `${q}`, item_sku_code: `UQ-${unique()}`, mrp: 10, sp: 5, unit_quantity: q })),
            { variant_name: 'default', item_sku_code: `UQ-${unique()}`, mrp: 10, sp: 5 },
          ],
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json().data;
      expect(created.ProductVariants.map((v: { unit_quantity: unknown }) => v.unit_quantity)).toEqual([...quantities, 1]);
      // Stored as numeric(12,3) and read back as JSON numbers.
      const listed = await list(wsA.token, `?search=${encodeURIComponent(created.product_name)}`);
      expect(listed.json().data[0].ProductVariants.map((v: { unit_quantity: unknown }) => v.unit_quantity)).toEqual([...quantities, 1]);
      const stored = await t.orm.em
        .fork()
        .getConnection()
        .execute<{ q: string }[]>('select unit_quantity::text as q from product_variant where product_id = ? order by id', [created.id]);
      expect(stored.map((r) => r.q)).toEqual(['0.500', '0.001', '12.345', '1000000.000', '2.000', '1.000']);
    });

    it('GraphQL createProduct takes unitQuantity (default 1) and ProductVariant answers it; 400 naming unitQuantity', async () => {
      const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) { variants { itemSkuCode unitQuantity } } }`;
      const input = (variants: Array<Record<string, unknown>>) => ({ productName: `Gql ${unique()}`, productClassId: classA.id, variants });
      const variant = (extra: Record<string, unknown> = {}) => ({ variantName: 'v', itemSkuCode: `G-${unique()}`, mrp: 10, sp: 5, ...extra });
      const ok = await t.graphql<{ createProduct: { variants: Array<{ unitQuantity: number }> } }>(
        mutation,
        { input: input([variant({ unitQuantity: 0.25 }), variant(), variant({ unitQuantity: null })]) },
        wsA.token,
      );
      expect(ok.errors).toBeUndefined();
      expect(ok.data?.createProduct.variants.map((v) => v.unitQuantity)).toEqual([0.25, 1, 1]);

      const before = await counts(wsA);
      for (const [value, message] of [
        [0, 'variants[0].unitQuantity must be > 0'],
        [-1, 'variants[0].unitQuantity must be > 0'],
        [1.0005, 'variants[0].unitQuantity must have at most three decimal places'],
        [1_000_001, 'variants[0].unitQuantity must be <= 1000000'],
      ] as const) {
        const bad = await t.graphql(mutation, { input: input([variant({ unitQuantity: value })]) }, wsA.token);
        expect(bad.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
      }
      const notNumber = await t.graphql(mutation, { input: input([variant({ unitQuantity: 'half' })]) }, wsA.token);
      expect(notNumber.errors?.[0]?.message).toMatch(/unitQuantity/);
      expect(await counts(wsA)).toEqual(before);
    });

    const invalid: Array<[string, () => Record<string, unknown>, RegExp]> = [
      ['missing product_name', () => ({ product_class_id: classA.id }), /^product_name is required$/],
      ['blank product_name', () => validBody({ product_name: '   ' }), /^product_name /],
      ['missing product_class_id', () => ({ product_name: 'X' }), /^product_class_id is required$/],
      ['unknown product_class_id', () => validBody({ product_class_id: 99_999_999 }), /^product_class_id /],
      ["another workspace's product_class_id", () => validBody({ product_class_id: classB.id }), /^product_class_id /],
      ['string product_class_id', () => validBody({ product_class_id: String(classA.id) }), /^product_class_id /],
      ['product_hsn abc', () => validBody({ product_hsn: 'abc' }), /^product_hsn /],
      ['product_color_code red', () => validBody({ product_color_code: 'red' }), /^product_color_code /],
      ['product_image not a URL', () => validBody({ product_image: 'not a url' }), /^product_image /],
      [
        'variants[1].item_sku_code missing',
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: 10, sp: 9 }, { variant_name: 'b', mrp: 10, sp: 9 }] }),
        /^variants\[1\]\.item_sku_code is required$/,
      ],
      [
        'negative mrp',
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: -1, sp: 0 }] }),
        /^variants\[0\]\.mrp must be >= 0$/,
      ],
      [
        'sp above mrp',
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: 10, sp: 10.01 }] }),
        /^variants\[0\]\.sp /,
      ],
      [
        'mrp given as a string',
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: '30', sp: 20 }] }),
        /^variants\[0\]\.mrp must be a number$/,
      ],
      [
        'more than two decimals',
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: 10.123, sp: 5 }] }),
        /^variants\[0\]\.mrp /,
      ],
      [
        'variant_quantity 0',
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: 10, sp: 5, variant_quantity: 0 }] }),
        /^variants\[0\]\.variant_quantity /,
      ],
      ...(
        [
          ['unit_quantity 0', 0, /^variants\[0\]\.unit_quantity must be > 0$/],
          ['unit_quantity negative', -0.5, /^variants\[0\]\.unit_quantity must be > 0$/],
          ['unit_quantity with four decimals', 0.1234, /^variants\[0\]\.unit_quantity must have at most three decimal places$/],
          ['unit_quantity given as a string', '0.5', /^variants\[0\]\.unit_quantity must be a number$/],
          ['unit_quantity null', null, /^variants\[0\]\.unit_quantity must be a number$/],
          ['unit_quantity above 1,000,000', 1_000_000.5, /^variants\[0\]\.unit_quantity must be <= 1000000$/],
        ] as Array<[string, unknown, RegExp]>
      ).map(([name, value, message]): [string, () => Record<string, unknown>, RegExp] => [
        name,
        () => validBody({ variants: [{ variant_name: 'a', item_sku_code: `S-${unique()}`, mrp: 10, sp: 5, unit_quantity: value }] }),
        message,
      ]),
      [
        'SKU repeated within the request',
        () => {
          const sku = `DUP-${unique()}`;
          return validBody({
            variants: [
              { variant_name: 'a', item_sku_code: sku, mrp: 10, sp: 9 },
              { variant_name: 'b', item_sku_code: sku, mrp: 20, sp: 19 },
            ],
          });
        },
        /^variants\[1\]\.item_sku_code /,
      ],
    ];

    it.each(invalid)('%s → 400 naming the field, nothing created', async (_name, body, message) => {
      const before = await counts(wsA);
      const res = await post(wsA.token, body());
      expect(res.statusCode, res.body).toBe(400);
      const json = res.json();
      expect(json).toEqual(errorEnvelope(400, expect.stringMatching(message)));
      // REST messages spell every field in snake_case.
      expect(json.message).not.toMatch(/[a-z][A-Z]/);
      expect(await counts(wsA)).toEqual(before);
    });

    it('a SKU already used in the workspace → 409, nothing created', async () => {
      const sku = `TAKEN-${unique()}`;
      const first = await post(wsA.token, validBody({ variants: [{ variant_name: 'a', item_sku_code: sku, mrp: 10, sp: 9 }] }));
      expect(first.statusCode, first.body).toBe(201);

      const before = await counts(wsA);
      const res = await post(
        wsA.token,
        validBody({
          variants: [
            { variant_name: 'fresh', item_sku_code: `FRESH-${unique()}`, mrp: 10, sp: 9 },
            { variant_name: 'taken', item_sku_code: sku, mrp: 10, sp: 9 },
          ],
        }),
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ response_code: 409, message: expect.stringContaining(sku) });
      expect(await counts(wsA)).toEqual(before);

      // The same SKU in another workspace is fine.
      const other = await post(wsB.token, {
        product_name: 'Other workspace product',
        product_class_id: classB.id,
        variants: [{ variant_name: 'a', item_sku_code: sku, mrp: 10, sp: 9 }],
      });
      expect(other.statusCode, other.body).toBe(201);
      expect(other.json().data.ProductVariants[0].item_sku_code).toBe(sku);
    });

    it('employees and distributors may not create products (403), nothing created', async () => {
      const before = await counts(wsA);
      for (const token of [employeeToken, distributorToken]) {
        const res = await post(token, validBody());
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
      }
      expect(await counts(wsA)).toEqual(before);
    });

    it('needs a token (401), and an invalid token is 401', async () => {
      const before = await counts(wsA);
      for (const token of [undefined, 'not-a-token']) {
        const res = await post(token, validBody());
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
      }
      expect(await counts(wsA)).toEqual(before);
    });
  });

  describe('GET list', () => {
    let ws: Workspace;
    let cls: { id: number; name: string };
    /** Names in creation order. */
    const names = ['Alpha Milk', 'alpha curd', '100% Pure Ghee', 'Ghee_Special', 'GheeXSpecial'];
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      ws = await createWorkspace(t);
      cls = await createClass(ws);
      for (const name of names) {
        const res = await post(ws.token, {
          product_name: name,
          product_class_id: cls.id,
          variants: [{ variant_name: 'v', item_sku_code: `L-${unique()}`, mrp: 10, sp: 8 }],
        });
        expect(res.statusCode, res.body).toBe(201);
        ids[name] = res.json().data.id;
      }
    });

    const namesOf = (res: { json(): { data: Array<{ product_name: string }> } }) => res.json().data.map((p) => p.product_name);

    it('lists newest first with the documented shape and default pagination', async () => {
      const res = await list(ws.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'response_code']);
      expect(body.response_code).toBe(200);
      expect(body.pagination).toEqual({ total: 5, page: 1, limit: 20, total_pages: 1 });
      expect(namesOf(res)).toEqual([...names].reverse());
      expect(body.data[0]).toEqual({
        id: ids.GheeXSpecial,
        product_name: 'GheeXSpecial',
        product_class_id: cls.id,
        product_hsn: '',
        product_color_code: '#000000',
        product_description: '',
        product_image: null,
        status: 1,
        ProductClass: { id: cls.id, product_class: cls.name },
        ProductVariants: [
          {
            id: expect.any(Number),
            variant_name: 'v',
            item_sku_code: expect.stringMatching(/^L-/),
            mrp: 10,
            sp: 8,
            variant_size: '',
            variant_quantity: 1,
            container_quantity: 1,
            unit_quantity: 1,
            status: 1,
          },
        ],
      });
    });

    it('pages with limit and page', async () => {
      const p1 = await list(ws.token, '?limit=2');
      expect(p1.json().pagination).toEqual({ total: 5, page: 1, limit: 2, total_pages: 3 });
      expect(namesOf(p1)).toEqual(['GheeXSpecial', 'Ghee_Special']);
      const p3 = await list(ws.token, '?limit=2&page=3');
      expect(p3.statusCode).toBe(200);
      expect(p3.json().pagination).toEqual({ total: 5, page: 3, limit: 2, total_pages: 3 });
      expect(namesOf(p3)).toEqual(['Alpha Milk']);
      const past = await list(ws.token, '?limit=2&page=4');
      expect(past.statusCode).toBe(200);
      expect(past.json().data).toEqual([]);
      expect(past.json().pagination).toEqual({ total: 5, page: 4, limit: 2, total_pages: 3 });
      const max = await list(ws.token, '?limit=100');
      expect(max.statusCode).toBe(200);
      expect(max.json().pagination.limit).toBe(100);
    });

    it.each([
      ['limit=101', /^limit must be <= 100$/],
      ['limit=0', /^limit /],
      ['limit=abc', /^limit /],
      ['page=0', /^page /],
      ['page=x', /^page /],
      ['status=2', /^status /],
      ['status=abc', /^status /],
    ])('?%s → 400 naming the parameter', async (query, message) => {
      const res = await list(ws.token, `?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
    });

    it('search matches the product name case-insensitively', async () => {
      const res = await list(ws.token, '?search=ALPHA');
      expect(res.statusCode).toBe(200);
      expect(namesOf(res)).toEqual(['alpha curd', 'Alpha Milk']);
      expect(res.json().pagination).toEqual({ total: 2, page: 1, limit: 20, total_pages: 1 });
      expect(namesOf(await list(ws.token, '?search=nothing-like-this'))).toEqual([]);
      expect(namesOf(await list(ws.token, '?search=milk%20ALPHA'))).toEqual(['Alpha Milk']);
    });

    it('a % or _ in the search matches literally', async () => {
      expect(namesOf(await list(ws.token, `?search=${encodeURIComponent('%')}`))).toEqual(['100% Pure Ghee']);
      expect(namesOf(await list(ws.token, '?search=_'))).toEqual(['Ghee_Special']);
      expect(namesOf(await list(ws.token, '?search=ghee_'))).toEqual(['Ghee_Special']);
      expect(namesOf(await list(ws.token, `?search=${encodeURIComponent('0%')}`))).toEqual(['100% Pure Ghee']);
      const backslash = await list(ws.token, `?search=${encodeURIComponent('\\')}`);
      expect(backslash.statusCode, backslash.body).toBe(200);
      expect(backslash.json().data).toEqual([]);
    });

    it('filters by status 0 and 1', async () => {
      await t.orm.em.fork().getConnection().execute('update product set status = 0 where id = ?', [ids['alpha curd']]);
      const inactive = await list(ws.token, '?status=0');
      expect(inactive.statusCode).toBe(200);
      expect(namesOf(inactive)).toEqual(['alpha curd']);
      expect(inactive.json().data[0].status).toBe(0);
      expect(inactive.json().pagination.total).toBe(1);
      const active = await list(ws.token, '?status=1');
      expect(namesOf(active)).toEqual(['GheeXSpecial', 'Ghee_Special', '100% Pure Ghee', 'Alpha Milk']);
      expect(namesOf(await list(ws.token, '?status=1&search=alpha'))).toEqual(['Alpha Milk']);
    });

    it("never shows another workspace's products", async () => {
      const res = await list(wsB.token, '?limit=100');
      expect(res.statusCode).toBe(200);
      const shown = res.json().data as Array<{ id: number; product_class_id: number }>;
      expect(res.json().pagination.total).toBe(await countRows('product', wsB.organizationId));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((p) => p.product_class_id === classB.id)).toBe(true);
      expect(shown.map((p) => p.id)).not.toContain(ids['Alpha Milk']);
      expect(namesOf(await list(wsB.token, '?search=Ghee'))).toEqual([]);
    });

    it('every signed-in user of the workspace may list; no token is 401', async () => {
      const employee = await createUser(t, ws, UserType.EMPLOYEE);
      const retailer = await createUser(t, ws, UserType.RETAILER);
      for (const token of [employee.token, retailer.token]) {
        const res = await list(token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().pagination.total).toBe(5);
      }
      const anon = await list(undefined);
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toEqual({ response_code: 401, message: expect.any(String) });
    });
  });
});
