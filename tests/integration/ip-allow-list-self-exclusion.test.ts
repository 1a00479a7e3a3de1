import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * An administrator cannot shut herself out by accident: saving an IP allow-list that applies to
 * her and leaves out her current address is refused with INV.IP.ALLOW.LIST.EXCLUDES.CURRENT.ADDRESS
 * naming that address, unless the request says it is confirmed. The suites reach the API through
 * 127.0.0.1, the trusted proxy, so X-Forwarded-For names the admin's address here.
 */
describe('IP allow-list: the saving admin keeps her access unless she confirms', () => {
  let admin: string;
  let itpId: number;
  let facilityId: number;
  let original: { ipWhiteListEnabled: boolean; ipAddresses: string | null };
  const ADMIN_ADDRESS = '198.51.100.23';
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const save = (body: Record<string, unknown>, address = ADMIN_ADDRESS) =>
    api('PUT', `/api/itp-organization/${itpId}/update-ip-whitelist-settings`, { token: admin, body, headers: from(address) });
  const stored = async () =>
    (await db.query('SELECT ip_white_list_enabled AS "ipWhiteListEnabled", ip_addresses AS "ipAddresses" FROM itp_organization WHERE id = $1', [itpId])).rows[0];

  beforeAll(async () => {
    admin = (await signInAs(UserType.ItpAdmin)).accessToken;
    itpId = (await api('GET', '/api/itp-organization', { token: admin })).body.id;
    facilityId = (await db.query('SELECT min(id) AS id FROM facilities')).rows[0].id;
    original = await stored();
  });

  afterAll(async () => {
    // Whatever happened, the ITP organization's list is put back: in the database, then through the
    // API (which drops its few seconds' snapshot of the lists) from an address the last list allowed.
    await db.query('UPDATE itp_organization SET ip_white_list_enabled = $2, ip_addresses = $3 WHERE id = $1', [
      itpId,
      original.ipWhiteListEnabled,
      original.ipAddresses,
    ]);
    for (const address of ['203.0.113.1', ADMIN_ADDRESS, '127.0.0.1'])
      if ((await save({ facilityId: null, ...original }, address)).status === 200) break;
    await db.end();
  });

  it('refuses a list of her own organization that leaves out her address, naming the address, and saves nothing', async () => {
    const res = await save({ facilityId: null, ipWhiteListEnabled: true, ipAddresses: '203.0.113.0/24' });
    expect([res.status, res.error?.code]).toEqual([409, ErrorCode.IpAllowListExcludesCurrentAddress]);
    expect(res.body.payload).toEqual({ ipAddress: ADMIN_ADDRESS });
    expect(await stored()).toEqual(original);
    // She still works.
    expect((await api('GET', '/api/user/context', { token: admin, headers: from(ADMIN_ADDRESS) })).status).toBe(200);
  });

  it('saves without asking when her address is on the list, the list is off, or the list is not hers', async () => {
    const onIt = await save({ facilityId: null, ipWhiteListEnabled: true, ipAddresses: `203.0.113.0/24, ${ADMIN_ADDRESS}` });
    expect(onIt.status).toBe(200);
    const off = await save({ facilityId: null, ipWhiteListEnabled: false, ipAddresses: '203.0.113.0/24' });
    expect(off.status).toBe(200);
    // A facility's list does not apply to ITP staff.
    const facility = await save({ facilityId, ipWhiteListEnabled: true, ipAddresses: '203.0.113.0/24' });
    expect(facility.status).toBe(200);
    expect((await save({ facilityId, ipWhiteListEnabled: false, ipAddresses: null })).status).toBe(200);
  });

  it('saves it when confirmed; then her own calls from that address are refused', async () => {
    const res = await save({ facilityId: null, ipWhiteListEnabled: true, ipAddresses: '203.0.113.0/24', confirmed: true });
    expect(res.status).toBe(200);
    expect(await stored()).toEqual({ ipWhiteListEnabled: true, ipAddresses: '203.0.113.0/24' });
    const after = await api('GET', '/api/user/context', { token: admin, headers: from(ADMIN_ADDRESS) });
    expect([after.status, after.error?.code]).toEqual([403, ErrorCode.Forbidden]);
    // From an address on the list she can lift it again.
    const lift = await save({ facilityId: null, ipWhiteListEnabled: false, ipAddresses: '203.0.113.0/24' }, '203.0.113.1');
    expect(lift.status).toBe(200);
  });

  it('refuses a confirmed flag that is not a boolean', async () => {
    const res = await save({ facilityId: null, ipWhiteListEnabled: false, ipAddresses: null, confirmed: 'yes' });
    expect([res.status, res.error?.code]).toEqual([400, ErrorCode.Invalid]);
    expect((res.body.fields ?? []).map((f: { field: string }) => f.field)).toContain('confirmed');
  });
});
