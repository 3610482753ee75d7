import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserType } from '../../src/domains/users/user.entity';
import { createUser, createWorkspace, unique, type Workspace } from '../helpers/fixtures';
import { buildTestApp, type TestApp } from '../helpers/test-app';
import { errorEnvelope } from '../helpers/envelope';

type Body = Record<string, unknown>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DAY = 24 * 60 * 60 * 1000;

describe('REST /api/v1/workspace/config', () => {
  let t: TestApp;
  let ws: Workspace;
  let wsName: string;
  let wsB: Workspace;
  let wsBName: string;
  let employeeToken: string;
  let distributorToken: string;
  let retailerToken: string;

  const get = (token: string | undefined) => t.request({ method: 'GET', url: '/api/v1/workspace/config', token });
  const put = (token: string | undefined, payload: unknown) => t.request({ method: 'PUT', url: '/api/v1/workspace/config', token, payload: payload as Body });
  const configOf = async (token = ws.token): Promise<Body> => {
    const res = await get(token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.config;
  };

  const defaults = (organizationId: number, footer: string) => ({
    id: expect.any(Number),
    organization_id: organizationId,
    logo: null,
    primary_color: '#1F4E79',
    secondary_color: '#F2A900',
    org_footer_name: footer,
    org_address: '',
    gstin: '',
    fssai: '',
    contact_number: '',
    order_timing: '00:00-23:59',
    page_limit: 20,
    chatbot_enabled: false,
    time_zone: 'UTC',
    position_retention_days: 90,
    visit_radius_m: 100,
    visit_min_dwell_minutes: 2,
    grievance_ack_hours: 48,
    grievance_resolve_days: 30,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    wsName = `Config Dairy ${unique()}`;
    ws = await createWorkspace(t, wsName);
    wsBName = `Other Dairy ${unique()}`;
    wsB = await createWorkspace(t, wsBName);
    employeeToken = (await createUser(t, ws, UserType.EMPLOYEE)).token;
    distributorToken = (await createUser(t, ws, UserType.DISTRIBUTOR)).token;
    retailerToken = (await createUser(t, ws, UserType.RETAILER)).token;
  });
  afterAll(() => t.close());

  describe('GET', () => {
    it('returns the signup defaults and the workspace', async () => {
      const res = await get(wsB.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        response_code: 200,
        data: {
          config: defaults(wsB.organizationId, wsBName),
          workspace: {
            workspace_id: expect.stringMatching(/^ws_[0-9a-f]{16}$/),
            slug: wsB.slug,
            display_name: wsBName,
            domain: null,
            plan: 'free',
            status: 2,
            max_users: 25,
            trial_ends_at: expect.stringMatching(ISO),
          },
        },
      });
      const trialLeft = new Date(body.data.workspace.trial_ends_at).getTime() - Date.now();
      expect(trialLeft).toBeGreaterThan(13 * DAY);
      expect(trialLeft).toBeLessThanOrEqual(14 * DAY);
      // Stable: a second read gives the same record.
      expect((await get(wsB.token)).json()).toEqual(body);
    });

    it('works for every signed-in user of the workspace', async () => {
      const admin = (await get(ws.token)).json().data;
      for (const token of [employeeToken, distributorToken, retailerToken]) {
        const res = await get(token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toEqual(admin);
      }
    });

    it('needs a valid token (401)', async () => {
      for (const token of [undefined, 'garbage.token.value']) {
        const res = await get(token);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
      }
    });
  });

  describe('PUT', () => {
    it('changes every field, answers 200 with message and the config, and persists', async () => {
      const before = await configOf();
      const res = await put(ws.token, {
        logo: 'https://cdn.example.test/logo.png',
        primary_color: '#aa11bb',
        secondary_color: '#00FF7f',
        org_footer_name: '  Footer Ltd  ',
        org_address: '12 Dairy Lane, Anand',
        contact_number: '+91 98765-43210',
        gstin: '24aaacb1234c1z5',
        fssai: '10012345678901',
        order_timing: '06:30-18:45',
        page_limit: 50,
        chatbot_enabled: true,
        time_zone: 'asia/kolkata',
        position_retention_days: 30,
        visit_radius_m: 250,
        visit_min_dwell_minutes: 5,
        grievance_ack_hours: 24,
        grievance_resolve_days: 15,
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        id: before.id,
        organization_id: ws.organizationId,
        logo: 'https://cdn.example.test/logo.png',
        primary_color: '#AA11BB',
        secondary_color: '#00FF7F',
        org_footer_name: 'Footer Ltd',
        org_address: '12 Dairy Lane, Anand',
        contact_number: '+919876543210',
        gstin: '24AAACB1234C1Z5',
        fssai: '10012345678901',
        order_timing: '06:30-18:45',
        page_limit: 50,
        chatbot_enabled: true,
        time_zone: 'Asia/Kolkata',
        position_retention_days: 30,
        visit_radius_m: 250,
        visit_min_dwell_minutes: 5,
        grievance_ack_hours: 24,
        grievance_resolve_days: 15,
      };
      expect(res.json()).toEqual({ response_code: 200, message: expect.any(String), data: expected });
      expect(res.json().message.length).toBeGreaterThan(0);
      expect(await configOf()).toEqual(expected);
    });

    it.each([
      ['logo', 'https://example.test/new.svg', 'https://example.test/new.svg'],
      ['primary_color', '#123456', '#123456'],
      ['secondary_color', '#abcdef', '#ABCDEF'],
      ['org_footer_name', 'New Footer', 'New Footer'],
      ['org_address', 'Plot 7, GIDC', 'Plot 7, GIDC'],
      ['contact_number', '9876501234', '9876501234'],
      ['gstin', '27AAPFU0939F1ZV', '27AAPFU0939F1ZV'],
      ['fssai', '22112233445566', '22112233445566'],
      ['order_timing', '00:00-00:01', '00:00-00:01'],
      ['page_limit', 1, 1],
      ['page_limit', 100, 100],
      ['chatbot_enabled', false, false],
      ['time_zone', 'America/New_York', 'America/New_York'],
      ['time_zone', 'etc/gmt+5', 'Etc/GMT+5'],
      ['time_zone', 'Asia/Calcutta', 'Asia/Calcutta'],
      ['time_zone', ' utc ', 'UTC'],
      ['position_retention_days', 1, 1],
      ['position_retention_days', 3650, 3650],
      ['visit_radius_m', 10, 10],
      ['visit_radius_m', 5000, 5000],
      ['visit_min_dwell_minutes', 0, 0],
      ['visit_min_dwell_minutes', 240, 240],
      ['grievance_ack_hours', 1, 1],
      ['grievance_ack_hours', 720, 720],
      ['grievance_resolve_days', 1, 1],
      ['grievance_resolve_days', 365, 365],
      ['org_address', '', ''],
      ['gstin', '', ''],
    ])('changing only %s to %j leaves the other fields unchanged', async (field, value, stored) => {
      const before = await configOf();
      const res = await put(ws.token, { [field]: value });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ ...before, [field]: stored });
      expect(await configOf()).toEqual({ ...before, [field]: stored });
    });

    it('an empty string or null clears the logo', async () => {
      for (const cleared of ['', null, '   ']) {
        expect((await put(ws.token, { logo: 'http://example.test/l.png' })).statusCode).toBe(200);
        expect((await configOf()).logo).toBe('http://example.test/l.png');
        const res = await put(ws.token, { logo: cleared });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.logo).toBeNull();
        expect((await configOf()).logo).toBeNull();
      }
    });

    const invalid: Array<[string, unknown, RegExp]> = [
      ['primary_color', 'red', /^primary_color /],
      ['primary_color', '#12345', /^primary_color /],
      ['primary_color', '#GGGGGG', /^primary_color /],
      ['primary_color', '123456', /^primary_color /],
      ['primary_color', 123456, /^primary_color /],
      ['secondary_color', 'blue', /^secondary_color /],
      ['secondary_color', '#1234567', /^secondary_color /],
      ['order_timing', '9-17', /^order_timing /],
      ['order_timing', '09:00 - 17:00', /^order_timing /],
      ['order_timing', '18:00-09:00', /^order_timing /],
      ['order_timing', '10:00-10:00', /^order_timing /],
      ['order_timing', '24:00-23:00', /^order_timing /],
      ['order_timing', '08:60-09:00', /^order_timing /],
      ['logo', 'ftp://example.test/logo.png', /^logo /],
      ['logo', 'not a url', /^logo /],
      ['logo', 'javascript:alert(1)', /^logo /],
      ['logo', 42, /^logo /],
      ['contact_number', '12345', /^contact_number /],
      ['contact_number', 'call me maybe', /^contact_number /],
      ['gstin', 'ABC', /^gstin /],
      ['gstin', '24AAACB1234C1Z', /^gstin /],
      ['gstin', '24AAACB1234C1Z55', /^gstin /],
      ['gstin', 'AAAAAAAAAAAAAAA', /^gstin /],
      ['fssai', '1234567890123', /^fssai /],
      ['fssai', '123456789012345', /^fssai /],
      ['fssai', 'abcdefghijklmn', /^fssai /],
      ['page_limit', 0, /^page_limit must be >= 1$/],
      ['page_limit', 101, /^page_limit must be <= 100$/],
      ['page_limit', 2.5, /^page_limit /],
      ['page_limit', '20', /^page_limit /],
      ['chatbot_enabled', 'yes', /^chatbot_enabled /],
      ['time_zone', 'Mars/Olympus_Mons', /^time_zone must be an IANA time zone name such as UTC or Asia\/Kolkata$/],
      ['time_zone', '', /^time_zone must be an IANA time zone name/],
      ['time_zone', '+05:30', /^time_zone must be an IANA time zone name/],
      ['time_zone', 'x'.repeat(65), /^time_zone /],
      ['time_zone', 5, /^time_zone /],
      ['position_retention_days', 0, /^position_retention_days must be >= 1$/],
      ['position_retention_days', 3651, /^position_retention_days must be <= 3650$/],
      ['position_retention_days', 7.5, /^position_retention_days /],
      ['visit_radius_m', 9, /^visit_radius_m must be >= 10$/],
      ['visit_radius_m', 5001, /^visit_radius_m must be <= 5000$/],
      ['visit_min_dwell_minutes', -1, /^visit_min_dwell_minutes must be >= 0$/],
      ['visit_min_dwell_minutes', 241, /^visit_min_dwell_minutes must be <= 240$/],
      ['visit_min_dwell_minutes', 1.5, /^visit_min_dwell_minutes /],
      ['grievance_ack_hours', 0, /^grievance_ack_hours must be >= 1$/],
      ['grievance_ack_hours', 721, /^grievance_ack_hours must be <= 720$/],
      ['grievance_resolve_days', 366, /^grievance_resolve_days must be <= 365$/],
      ['org_footer_name', 'x'.repeat(201), /^org_footer_name /],
    ];

    it.each(invalid)('%s = %j → 400 naming the field, nothing changes', async (field, value, message) => {
      const before = await configOf();
      const res = await put(ws.token, { [field]: value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.stringMatching(message)));
      expect(await configOf()).toEqual(before);
    });

    it('an empty body {} → 400', async () => {
      const before = await configOf();
      const res = await put(ws.token, {});
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorEnvelope(400, expect.any(String)));
      expect(await configOf()).toEqual(before);
    });

    it('an invalid field together with valid ones changes nothing', async () => {
      const before = await configOf();
      for (const payload of [
        { org_address: 'Should not stick', primary_color: '#000000', order_timing: '17:00-09:00' },
        { order_timing: '08:00-20:00', org_footer_name: 'Nope', page_limit: 500 },
        { logo: 'https://ok.example.test/x.png', gstin: 'bad', fssai: '12345678901234' },
        { chatbot_enabled: true, contact_number: '123' },
      ]) {
        const res = await put(ws.token, payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
        expect(await configOf()).toEqual(before);
      }
    });

    it('employees, distributors and retailers may not change it (403), nothing changes', async () => {
      const before = await configOf();
      for (const token of [employeeToken, distributorToken, retailerToken]) {
        const res = await put(token, { org_address: 'Taken over', primary_color: '#FF0000' });
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ response_code: 403, message: expect.any(String) });
      }
      expect(await configOf()).toEqual(before);
    });

    it('needs a valid token (401), nothing changes', async () => {
      const before = await configOf();
      for (const token of [undefined, 'garbage.token.value']) {
        const res = await put(token, { org_address: 'Anonymous' });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ response_code: 401, message: expect.any(String) });
      }
      expect(await configOf()).toEqual(before);
    });

    it("each workspace sees and changes only its own config", async () => {
      const a = await configOf(ws.token);
      const res = await put(wsB.token, { org_address: `B street ${unique()}`, primary_color: '#0B0B0B' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.organization_id).toBe(wsB.organizationId);
      expect(res.json().data.id).not.toBe(a.id);
      expect(await configOf(ws.token)).toEqual(a);

      const b = (await get(wsB.token)).json().data;
      expect(b.config).toMatchObject({ organization_id: wsB.organizationId, primary_color: '#0B0B0B', org_footer_name: wsBName });
      expect(b.workspace).toMatchObject({ slug: wsB.slug, display_name: wsBName });
      const aWorkspace = (await get(ws.token)).json().data.workspace;
      expect(aWorkspace).toMatchObject({ slug: ws.slug, display_name: wsName });
      expect(aWorkspace.workspace_id).not.toBe(b.workspace.workspace_id);
    });
  });
});
