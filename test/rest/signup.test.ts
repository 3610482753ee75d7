import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique, uniquePhone } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

/**
 * POST /api/v1/signup/register. Every request of the main suite comes from its own client
 * address, so the 5-per-hour signup budget (per address) is never in the way; the rate-limit
 * test builds its own app and spends one address's budget deliberately.
 */

let addressSeq = 0;
/** A client address no other request of this file uses. */
function freshAddress(): string {
  addressSeq += 1;
  return `10.20.${Math.floor(addressSeq / 250)}.${(addressSeq % 250) + 1}`;
}

function signupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const n = unique();
  return {
    first_name: 'Asha',
    last_name: `Founder${n}`,
    official_email: `founder${n}@example.test`,
    primary_contact_number: uniquePhone(),
    password: 'correct-horse',
    organization_name: `Signup Dairy ${n}`,
    ...overrides,
  };
}

async function countRows(t: TestApp, table: string): Promise<number> {
  const rows = await t.orm.em.fork().getConnection().execute<{ n: string }[]>(`select count(*) as n from "${table}"`);
  return Number(rows[0].n);
}

function register(t: TestApp, payload: unknown, remoteAddress = freshAddress()) {
  return t.request({ method: 'POST', url: '/api/v1/signup/register', payload: payload as Record<string, unknown>, remoteAddress });
}

describe('POST /api/v1/signup/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 201 with token, user and workspace in the documented shape', async () => {
    const body = signupBody({ official_email: 'Mixed.Case@Example.TEST', organization_name: 'Shape Check Dairy' });
    const res = await register(t, body);
    expect(res.statusCode, res.body).toBe(201);
    const json = res.json();
    expect(Object.keys(json).sort()).toEqual(['message', 'response_code', 'token', 'user', 'workspace']);
    expect(json).toEqual({
      response_code: 201,
      message: expect.any(String),
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      user: {
        id: expect.any(Number),
        first_name: 'Asha',
        last_name: body.last_name,
        official_email: 'mixed.case@example.test',
        role_name: 'Admin',
        user_type: 0,
        organization_id: expect.any(Number),
        status: 1,
      },
      workspace: {
        workspace_id: expect.any(String),
        slug: 'shape-check-dairy',
        display_name: 'Shape Check Dairy',
        plan: 'free',
        status: 2,
      },
    });
    expect(json.message.length).toBeGreaterThan(0);

    // The token works at once and belongs to the new admin of the new workspace.
    const me = await t.request({ method: 'GET', url: '/api/v1/auth/me', token: json.token });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data.user).toMatchObject({
      id: json.user.id,
      user_type: 0,
      role_name: 'Admin',
      organization_id: json.user.organization_id,
      official_email: 'mixed.case@example.test',
      primary_contact_number: body.primary_contact_number,
    });
    expect(me.json().data.workspace).toMatchObject({
      workspace_id: json.workspace.workspace_id,
      slug: 'shape-check-dairy',
      display_name: 'Shape Check Dairy',
      plan: 'free',
      status: 2,
    });
  });

  it('creates the four default roles and the default workspace configuration', async () => {
    const res = await register(t, signupBody({ organization_name: 'Defaults Dairy' }));
    expect(res.statusCode, res.body).toBe(201);
    const { token, user, workspace } = res.json();

    const roles = await t.request({ method: 'GET', url: '/api/v1/masters/roles', token });
    expect(roles.statusCode, roles.body).toBe(200);
    expect(roles.json().pagination).toEqual({ total: 4, page: 1, limit: 20, total_pages: 1 });
    const roleRows = roles.json().data as Array<Record<string, unknown>>;
    expect(roleRows.map((r) => r.role_name).sort()).toEqual(['Admin', 'Distributor', 'Employee', 'Retailer']);
    for (const role of roleRows) {
      expect(role).toEqual({ id: expect.any(Number), role_name: expect.any(String), description: expect.any(String), status: 1, createdAt: expect.any(String) });
    }

    const config = await t.request({ method: 'GET', url: '/api/v1/workspace/config', token });
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json()).toEqual({
      response_code: 200,
      data: {
        config: {
          id: expect.any(Number),
          organization_id: user.organization_id,
          logo: null,
          primary_color: expect.stringMatching(/^#[0-9A-F]{6}$/i),
          secondary_color: expect.stringMatching(/^#[0-9A-F]{6}$/i),
          org_footer_name: 'Defaults Dairy',
          org_address: '',
          gstin: '',
          fssai: '',
          contact_number: '',
          order_timing: expect.stringMatching(/^\d{2}:\d{2}-\d{2}:\d{2}$/),
          page_limit: 20,
          chatbot_enabled: false,
          time_zone: 'UTC',
          position_retention_days: 90,
          visit_radius_m: 100,
          visit_min_dwell_minutes: 2,
          grievance_ack_hours: 48,
          grievance_resolve_days: 30,
        },
        workspace: {
          workspace_id: workspace.workspace_id,
          slug: 'defaults-dairy',
          display_name: 'Defaults Dairy',
          domain: null,
          plan: 'free',
          status: 2,
          max_users: expect.any(Number),
          trial_ends_at: expect.any(String),
        },
      },
    });
    // A trial of some days from now.
    const trialEnds = Date.parse(config.json().data.workspace.trial_ends_at);
    expect(trialEnds).toBeGreaterThan(Date.now() + 24 * 60 * 60 * 1000);
  });

  it('derives the slug from the organization name and makes it unique for a second workspace', async () => {
    const first = await register(t, signupBody({ organization_name: '  Crème Brûlée & Sons, Ltd.  ' }));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().workspace.slug).toBe('creme-brulee-sons-ltd');
    expect(first.json().workspace.display_name).toBe('Crème Brûlée & Sons, Ltd.');

    const second = await register(t, signupBody({ organization_name: 'Crème Brûlée & Sons, Ltd.' }));
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().workspace.slug).toBe('creme-brulee-sons-ltd-2');
    expect(second.json().workspace.workspace_id).not.toBe(first.json().workspace.workspace_id);
    expect(second.json().user.organization_id).not.toBe(first.json().user.organization_id);

    const third = await register(t, signupBody({ organization_name: 'creme brulee sons ltd' }));
    expect(third.statusCode, third.body).toBe(201);
    expect(third.json().workspace.slug).toBe('creme-brulee-sons-ltd-3');
  });

  it.each(['first_name', 'last_name', 'official_email', 'primary_contact_number', 'password', 'organization_name'])(
    'missing %s → 400 naming it, nothing created',
    async (field) => {
      const [orgs, users] = [await countRows(t, 'organization'), await countRows(t, 'app_user')];
      const body = signupBody();
      delete body[field];
      const res = await register(t, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, `${field} is required`));
      expect(await countRows(t, 'organization')).toBe(orgs);
      expect(await countRows(t, 'app_user')).toBe(users);
    },
  );

  it.each([
    ['official_email', 'not-an-email', /^official_email must be a valid e-mail address$/],
    ['official_email', 'someone@nowhere', /^official_email must be a valid e-mail address$/],
    ['password', 'short12', /^password must be at least 8 characters$/],
    ['primary_contact_number', '12345', /^primary_contact_number /],
    ['primary_contact_number', 'call me maybe', /^primary_contact_number /],
    ['first_name', '   ', /^first_name /],
    ['organization_name', '', /^organization_name /],
    ['password', 12345678, /^password must be a string$/],
  ])('bad %s (%j) → 400 naming the field, nothing created', async (field, value, message) => {
    const orgs = await countRows(t, 'organization');
    const res = await register(t, signupBody({ [field]: value }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
    expect(await countRows(t, 'organization')).toBe(orgs);
  });

  it('a duplicate e-mail (any case) → 409 and no second workspace', async () => {
    const body = signupBody();
    const first = await register(t, body);
    expect(first.statusCode, first.body).toBe(201);
    const [orgs, users] = [await countRows(t, 'organization'), await countRows(t, 'app_user')];

    const again = await register(t, signupBody({ official_email: String(body.official_email).toUpperCase() }));
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toEqual({ response_code: 409, message: expect.stringMatching(/e-mail/i) });
    expect(await countRows(t, 'organization')).toBe(orgs);
    expect(await countRows(t, 'app_user')).toBe(users);
  });

  it('a duplicate phone (also written differently) → 409 and no second workspace', async () => {
    const body = signupBody({ primary_contact_number: '+919812345678' });
    const first = await register(t, body);
    expect(first.statusCode, first.body).toBe(201);
    const orgs = await countRows(t, 'organization');

    const same = await register(t, signupBody({ primary_contact_number: '+919812345678' }));
    expect(same.statusCode, same.body).toBe(409);
    expect(same.json()).toEqual({ response_code: 409, message: expect.stringMatching(/phone/i) });

    const spaced = await register(t, signupBody({ primary_contact_number: '+91 98123-45678' }));
    expect(spaced.statusCode, spaced.body).toBe(409);
    expect(spaced.json()).toEqual({ response_code: 409, message: expect.stringMatching(/phone/i) });
    expect(await countRows(t, 'organization')).toBe(orgs);
  });

  it('an e-mail used by a user of another workspace → 409', async () => {
    const owner = await register(t, signupBody());
    expect(owner.statusCode, owner.body).toBe(201);
    const email = `member${unique()}@example.test`;
    const member = await t.request({
      method: 'POST',
      url: '/api/v1/users',
      token: owner.json().token,
      payload: {
        first_name: 'Member',
        last_name: 'One',
        official_email: email,
        primary_contact_number: uniquePhone(),
        password: 'password123',
        role_id: (await t.request({ method: 'GET', url: '/api/v1/masters/roles', token: owner.json().token })).json().data.find(
          (r: { role_name: string }) => r.role_name === 'Employee',
        ).id,
        user_type: 1,
      },
    });
    expect(member.statusCode, member.body).toBe(201);
    const orgs = await countRows(t, 'organization');
    const res = await register(t, signupBody({ official_email: email }));
    expect(res.statusCode, res.body).toBe(409);
    expect(await countRows(t, 'organization')).toBe(orgs);
  });

  it('the User-Agent rule applies to signup too', async () => {
    const orgs = await countRows(t, 'organization');
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/signup/register',
      payload: signupBody(),
      remoteAddress: freshAddress(),
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
    expect(await countRows(t, 'organization')).toBe(orgs);
  });
});

describe('signup rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('the 6th signup from one address within the hour → 429 with Retry-After; other addresses unaffected', async () => {
    const address = '192.0.2.77';
    for (let i = 1; i <= 5; i++) {
      const res = await register(t, signupBody(), address);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
    }
    const orgs = await countRows(t, 'organization');

    const sixth = await register(t, signupBody(), address);
    expect(sixth.statusCode, sixth.body).toBe(429);
    expect(sixth.json()).toEqual({ response_code: 429, message: expect.any(String) });
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await countRows(t, 'organization')).toBe(orgs);

    // Bad input from the same address is refused by the limiter as well, before validation.
    const seventh = await register(t, { first_name: 'x' }, address);
    expect(seventh.statusCode, seventh.body).toBe(429);

    // The budget is per address.
    const elsewhere = await register(t, signupBody(), '192.0.2.78');
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect(await countRows(t, 'organization')).toBe(orgs + 1);
  });
});
