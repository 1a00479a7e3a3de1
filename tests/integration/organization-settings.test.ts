import { execFileSync } from 'child_process';
import { randomUUID } from 'crypto';
import { ErrorCode, UserType } from '@crisis/forms';
import { api, eventually, type ApiResponse } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Organization security settings (spec 03 §3, §5, §7 Organization): the ITP organization's general
 * settings (ER line shown to facility users), IP allow-lists with their enforcement on every API
 * call, and SSO settings of the ITP organization and of a facility with certificate validation.
 */

const ITP_ADMIN = UserType.ItpAdmin;
let itpAdmin: string;
let facilityAdmin: string;
let facilityUser: string;
let itpId: number;
let facilityId: number;
let otherFacilityId: number;
let original: { organizationName: string; erLine: string | null; mfaEnabled: boolean };

const from = (ip: string) => ({ 'x-forwarded-for': ip });
/** The audit entries of a call made with our own correlation id (the API adopts it). */
async function auditOf(method: string, path: string, opts: { token: string; body: unknown }) {
  const cid = randomUUID();
  const res = await api(method, path, { ...opts, headers: { 'x-correlation-id': cid } });
  const { rows } = await db.query('SELECT main_action, success FROM audit_log WHERE correlation_id = $1', [cid]);
  return { res, audit: rows };
}
const fieldMessages = (res: ApiResponse) => (res.body?.fields ?? []).map((f: any) => `${f.field}: ${f.message}`);

/** A real self-signed certificate, made with the openssl CLI. */
function selfSignedCertificate(): string {
  return execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=idp.example.test', '-days', '2'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

beforeAll(async () => {
  [itpAdmin, facilityAdmin, facilityUser] = (
    await Promise.all([signInAs(ITP_ADMIN), signInAs(UserType.FacilityAdmin), signInAs(UserType.FacilityUser)])
  ).map((r) => r.accessToken);
  const org = await api('GET', '/api/itp-organization', { token: itpAdmin });
  expect(org.status).toBe(200);
  itpId = org.body.id;
  original = { organizationName: org.body.organizationName, erLine: org.body.erLine, mfaEnabled: org.body.mfaEnabled };
  const ctx = await api('GET', '/api/user/context', { token: facilityAdmin });
  facilityId = ctx.body.facilityId;
  const { rows } = await db.query('SELECT id FROM facilities WHERE id <> $1 ORDER BY id LIMIT 1', [facilityId]);
  otherFacilityId = rows[0].id;
}, 60_000);

afterAll(async () => {
  // Never leave an allow-list or SSO on: other suites run against the same API.
  await db.query('UPDATE itp_organization SET ip_white_list_enabled = false');
  await db.query('UPDATE facilities SET ip_white_list_enabled = false WHERE id = ANY($1)', [[facilityId, otherFacilityId]]);
  await db.query('UPDATE external_login_settings SET enabled = false, disable_password_login = false');
  await db.query('UPDATE users SET sso_enabled = false, disabled_password_login = false');
  if (original) await db.query('UPDATE itp_organization SET name = $1, er_line = $2, mfa_enabled = $3', [original.organizationName, original.erLine, original.mfaEnabled]);
  await db.end();
});

describe('ITP organization general settings', () => {
  it('requires the organization name and the ER line (medium text)', async () => {
    const blank = await api('PUT', '/api/itp-organization', { token: itpAdmin, body: { organizationName: 'X', erLine: '   ', mfaEnabled: false } });
    expect(blank.status).toBe(400);
    expect(blank.error?.code).toBe(ErrorCode.Invalid);
    expect(fieldMessages(blank)).toContain('erLine: This field is required');
    const long = await api('PUT', '/api/itp-organization', { token: itpAdmin, body: { organizationName: 'X', erLine: '1'.repeat(256), mfaEnabled: false } });
    expect(long.status).toBe(400);
    expect(fieldMessages(long)).toContain('erLine: Must be at most 255 characters');
    const { rows } = await db.query('SELECT name FROM itp_organization');
    expect(rows[0].name).toBe(original.organizationName);
  });

  it('is for the ITP admin only', async () => {
    for (const token of [facilityAdmin, facilityUser]) {
      expect((await api('GET', '/api/itp-organization', { token })).status).toBe(403);
      expect((await api('PUT', '/api/itp-organization', { token, body: { ...original, erLine: '1-800-000-0000' } })).status).toBe(403);
    }
  });

  it("changes the ER line shown in a facility user's context, and audits it", async () => {
    const erLine = `1-800-555-${String(Date.now() % 10000).padStart(4, '0')}`;
    const { res, audit } = await auditOf('PUT', '/api/itp-organization', { token: itpAdmin, body: { organizationName: original.organizationName, erLine, mfaEnabled: original.mfaEnabled } });
    expect(res.status).toBe(200);
    expect(audit).toEqual([{ main_action: 'ItpOrganization.Update', success: true }]);
    expect(res.body).toMatchObject({ id: itpId, erLine });
    await eventually(async () => (await api('GET', '/api/user/context', { token: facilityUser })).body.erLine === erLine, 'erLine in the user context', 10_000);
  });
});

describe('IP allow-list settings', () => {
  const put = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api('PUT', `/api/itp-organization/${itpId}/update-ip-whitelist-settings`, { token: itpAdmin, body, headers });

  const tooLong = Array.from({ length: 300 }, (_, i) => `10.0.${i % 250}.1/32`).join(','); // > 4000 characters
  it.each([
    ['a blank list when enabled', { ipWhiteListEnabled: true, ipAddresses: '' }, 'ipAddresses: IP Address is required'],
    ['no list when enabled', { ipWhiteListEnabled: true, ipAddresses: null }, 'ipAddresses: IP Address is required'],
    ['an octet over 255', { ipWhiteListEnabled: true, ipAddresses: '10.0.0.1, 300.1.1.1' }, 'ipAddresses: Invalid IP address list'],
    ['a mask over 32', { ipWhiteListEnabled: true, ipAddresses: '10.0.0.1/33' }, 'ipAddresses: Invalid IP address list'],
    ['an empty entry (even when disabled)', { ipWhiteListEnabled: false, ipAddresses: '10.0.0.1,,10.0.0.2' }, 'ipAddresses: Invalid IP address list'],
    ['a host name', { ipWhiteListEnabled: true, ipAddresses: 'example.org' }, 'ipAddresses: Invalid IP address list'],
    ['a list over 4000 characters', { ipWhiteListEnabled: true, ipAddresses: tooLong }, 'ipAddresses: Must be at most 4000 characters'],
  ])('refuses %s', async (_label, body, message) => {
    const res = await put({ facilityId: null, ...body });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe(ErrorCode.Invalid);
    expect(fieldMessages(res)).toContain(message);
    const { rows } = await db.query('SELECT ip_white_list_enabled FROM itp_organization');
    expect(rows[0].ip_white_list_enabled).toBe(false);
  });

  it('stores a facility list, reads it back, and refuses unknown ids', async () => {
    const res = await put({ facilityId: otherFacilityId, ipWhiteListEnabled: false, ipAddresses: ' 192.168.1.0/24 ,10.0.0.1 ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ facilityId: otherFacilityId, ipWhiteListEnabled: false, ipAddresses: '192.168.1.0/24, 10.0.0.1' });
    const get = await api('GET', `/api/itp-organization/${itpId}/organization-ip-whitelist-settings?facilityId=${otherFacilityId}`, { token: itpAdmin });
    expect(get.body).toEqual(res.body);
    expect((await put({ facilityId: 999999, ipWhiteListEnabled: false, ipAddresses: null })).status).toBe(404);
    expect((await api('GET', `/api/itp-organization/${itpId + 1000}/organization-ip-whitelist-settings`, { token: itpAdmin })).status).toBe(404);
    expect((await api('GET', `/api/itp-organization/${itpId}/organization-ip-whitelist-settings?facilityId=abc`, { token: itpAdmin })).status).toBe(404);
  });

  it('is for the ITP admin only', async () => {
    const res = await api('PUT', `/api/itp-organization/${itpId}/update-ip-whitelist-settings`, {
      token: facilityAdmin,
      body: { facilityId, ipWhiteListEnabled: false, ipAddresses: null },
    });
    expect(res.status).toBe(403);
    expect((await api('GET', `/api/itp-organization/${itpId}/organization-ip-whitelist-settings?facilityId=${facilityId}`, { token: facilityAdmin })).status).toBe(403);
  });
});

describe('IP allow-list enforcement', () => {
  it("refuses a facility's staff outside its list, and only them", async () => {
    const on = await api('PUT', `/api/itp-organization/${itpId}/update-ip-whitelist-settings`, {
      token: itpAdmin,
      body: { facilityId, ipWhiteListEnabled: true, ipAddresses: '10.1.2.0/24, 172.16.5.9' },
    });
    expect(on.status).toBe(200);
    for (const token of [facilityUser, facilityAdmin]) {
      expect((await api('GET', '/api/user/context', { token, headers: from('10.1.2.77') })).status).toBe(200);
      expect((await api('GET', '/api/user/context', { token, headers: from('172.16.5.9') })).status).toBe(200);
      const refused = await api('GET', '/api/user/context', { token, headers: from('10.1.3.1') });
      expect(refused.status).toBe(403);
      expect(refused.error?.code).toBe(ErrorCode.Forbidden);
      expect((await api('GET', '/api/user/context', { token })).status).toBe(403); // the test client itself (127.0.0.1)
    }
    // Other organizations are not affected.
    expect((await api('GET', '/api/user/context', { token: itpAdmin, headers: from('10.1.3.1') })).status).toBe(200);

    const off = await api('PUT', `/api/itp-organization/${itpId}/update-ip-whitelist-settings`, {
      token: itpAdmin,
      body: { facilityId, ipWhiteListEnabled: false, ipAddresses: '10.1.2.0/24, 172.16.5.9' },
    });
    expect(off.status).toBe(200);
    expect((await api('GET', '/api/user/context', { token: facilityUser, headers: from('10.1.3.1') })).status).toBe(200);
    expect((await api('GET', '/api/user/context', { token: facilityUser })).status).toBe(200);
  });

  it("refuses ITP staff outside the ITP organization's list, and disabling restores access", async () => {
    const url = `/api/itp-organization/${itpId}/update-ip-whitelist-settings`;
    // Saved from an address on the list: one that left the admin out would ask her to confirm.
    const on = await api('PUT', url, {
      token: itpAdmin,
      headers: from('203.0.113.1'),
      body: { facilityId: null, ipWhiteListEnabled: true, ipAddresses: '203.0.113.0/28' },
    });
    expect(on.status).toBe(200);
    expect((await api('GET', '/api/itp-organization', { token: itpAdmin, headers: from('203.0.113.14') })).status).toBe(200);
    const refused = await api('GET', '/api/itp-organization', { token: itpAdmin, headers: from('203.0.113.16') });
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe(ErrorCode.Forbidden);
    // A refused admin cannot lift the list from outside it.
    expect((await api('PUT', url, { token: itpAdmin, body: { facilityId: null, ipWhiteListEnabled: false, ipAddresses: null } })).status).toBe(403);
    // Facility staff are not affected.
    expect((await api('GET', '/api/user/context', { token: facilityUser })).status).toBe(200);

    const off = await api('PUT', url, { token: itpAdmin, headers: from('203.0.113.1'), body: { facilityId: null, ipWhiteListEnabled: false, ipAddresses: null } });
    expect(off.status).toBe(200);
    expect((await api('GET', '/api/itp-organization', { token: itpAdmin })).status).toBe(200);
  });
});

describe('SSO settings', () => {
  const cert = selfSignedCertificate().trim();
  const valid = {
    enabled: true,
    identityProviderEntityId: 'https://idp.example.test/metadata',
    signInUrl: 'https://idp.example.test/sso',
    x509Certificate: cert,
    userEmailClaim: 'email',
    disablePasswordLogin: false,
  };

  it('requires entity id, sign-in URL and certificate when enabled, within their limits', async () => {
    const res = await api('PUT', '/api/itp-organization/external-login-provider-settings', {
      token: itpAdmin,
      body: { enabled: true, identityProviderEntityId: '', signInUrl: null, x509Certificate: null },
    });
    expect(res.status).toBe(400);
    expect(fieldMessages(res)).toEqual(
      expect.arrayContaining([
        'identityProviderEntityId: This field is required',
        'signInUrl: This field is required',
        'x509Certificate: This field is required',
      ]),
    );
    const long = await api('PUT', '/api/itp-organization/external-login-provider-settings', {
      token: itpAdmin,
      body: { ...valid, identityProviderEntityId: 'x'.repeat(251), userEmailClaim: 'y'.repeat(251), x509Certificate: 'A'.repeat(4001) },
    });
    expect(long.status).toBe(400);
    expect(fieldMessages(long)).toEqual(
      expect.arrayContaining([
        'identityProviderEntityId: Must be at most 250 characters',
        'userEmailClaim: Must be at most 250 characters',
        'x509Certificate: Must be at most 4000 characters',
      ]),
    );
    // Disabled: nothing required.
    const off = await api('PUT', '/api/itp-organization/external-login-provider-settings', { token: itpAdmin, body: { enabled: false } });
    expect(off.status).toBe(200);
  });

  it("refuses what is not an X.509 certificate with 'Invalid X509 Certificate'", async () => {
    // Base64 that looks right but is no certificate: only Node's X509Certificate can tell.
    const fake = `-----BEGIN CERTIFICATE-----\n${Buffer.from('not a certificate at all, just text'.repeat(4)).toString('base64')}\n-----END CERTIFICATE-----`;
    const lines = cert.trim().split('\n');
    const truncated = [...lines.slice(0, 4), ...lines.slice(9)].join('\n');
    for (const x509Certificate of [fake, 'hello world!', truncated]) {
      const res = await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: facilityAdmin, body: { ...valid, x509Certificate } });
      expect(res.status).toBe(400);
      expect(res.error?.code).toBe(ErrorCode.Invalid);
      expect(fieldMessages(res)).toContain('x509Certificate: Invalid X509 Certificate');
    }
    const { rows } = await db.query('SELECT count(*)::int AS n FROM external_login_settings WHERE facility_id = $1 AND enabled', [facilityId]);
    expect(rows[0].n).toBe(0);
  });

  it("lets the facility admin configure her facility's SSO with a real certificate, audited", async () => {
    const before = await api('GET', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: facilityAdmin });
    expect(before.status).toBe(200);
    expect(before.body.serviceProviderId).toContain(`facility-${facilityId}`);
    const { res, audit } = await auditOf('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, {
      token: facilityAdmin,
      body: { ...valid, disablePasswordLogin: true },
    });
    expect(res.status).toBe(200);
    expect(audit).toEqual([{ main_action: 'Facility.UpdateExternalLoginSettings', success: true }]);
    expect(res.body).toMatchObject({ ...valid, disablePasswordLogin: true, facilityId, isOutdated: false, applyFailed: false });
    expect(res.body.id).toEqual(expect.any(Number));
    // The bare base64 body (as IdP metadata shows it) is accepted too.
    const bare = cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    expect((await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: facilityAdmin, body: { ...valid, x509Certificate: bare } })).status).toBe(200);
    // Her facility's users follow: password login disabled for non-admins at sign-in.
    await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: facilityAdmin, body: { ...valid, disablePasswordLogin: true } });
    const { rows } = await db.query(
      `SELECT bool_and(sso_enabled AND disabled_password_login) AS all_on FROM users WHERE organization_type = 'Facility' AND organization_id = $1`,
      [facilityId],
    );
    expect(rows[0].all_on).toBe(true);
    // Turn it off again (users follow).
    expect((await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: facilityAdmin, body: { ...valid, enabled: false } })).status).toBe(200);
    const after = await db.query(`SELECT bool_or(sso_enabled) AS any_on FROM users WHERE organization_type = 'Facility' AND organization_id = $1`, [facilityId]);
    expect(after.rows[0].any_on).toBe(false);
  });

  it("keeps a facility admin to her own facility, and facility users and ITP staff away from the ITP organization's", async () => {
    expect((await api('GET', `/api/facilities/${otherFacilityId}/external-login-provider-settings`, { token: facilityAdmin })).status).toBe(403);
    expect((await api('PUT', `/api/facilities/${otherFacilityId}/external-login-provider-settings`, { token: facilityAdmin, body: { enabled: false } })).status).toBe(403);
    expect((await api('GET', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: facilityUser })).status).toBe(403);
    expect((await api('GET', '/api/itp-organization/external-login-provider-settings', { token: facilityAdmin })).status).toBe(403);
    expect((await api('GET', `/api/facilities/999999/external-login-provider-settings`, { token: itpAdmin })).status).toBe(404);
  });

  it('stores the ITP organization SSO settings for the ITP admin', async () => {
    const res = await api('PUT', '/api/itp-organization/external-login-provider-settings', { token: itpAdmin, body: valid });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...valid, facilityId: null });
    const get = await api('GET', '/api/itp-organization/external-login-provider-settings', { token: itpAdmin });
    expect(get.body).toEqual(res.body);
    expect((await api('PUT', '/api/itp-organization/external-login-provider-settings', { token: itpAdmin, body: { enabled: false } })).status).toBe(200);
  });
});
