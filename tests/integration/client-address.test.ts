import http from 'node:http';
import { ErrorCode, UserType } from '@crisis/forms';
import { API_URL, api } from '../support/api';
import { signInAs } from '../support/oidc-client';

/**
 * The client address is the connection's unless a configured proxy (TRUSTED_PROXIES; the test
 * runner names 127.0.0.1) says otherwise: a client on another address cannot claim an address of
 * its facility's IP allow-list with X-Forwarded-For (before, every client's header was believed).
 */
describe('client address and the IP allow-list', () => {
  let itpAdmin: string;
  let facilityAdmin: string;
  let itpId: number;
  let facilityId: number;

  beforeAll(async () => {
    itpAdmin = (await signInAs(UserType.ItpAdmin)).accessToken;
    facilityAdmin = (await signInAs(UserType.FacilityAdmin)).accessToken;
    itpId = (await api('GET', '/api/itp-organization', { token: itpAdmin })).body.id;
    facilityId = (await api('GET', '/api/user/context', { token: facilityAdmin })).body.facilityId;
  });

  /** GET from the loopback address 127.0.0.2 (not a trusted proxy), with the headers given. */
  function getFrom(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
    const url = new URL(API_URL + path);
    return new Promise((resolve, reject) => {
      const req = http.get(url, { localAddress: '127.0.0.2', headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      });
      req.on('error', reject);
    });
  }

  it('does not let a client claim an allowed address with X-Forwarded-For', async () => {
    const settings = `/api/itp-organization/${itpId}/update-ip-whitelist-settings`;
    const on = await api('PUT', settings, { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: true, ipAddresses: '10.9.8.0/24' } });
    expect(on.status).toBe(200);
    try {
      const spoofed = await getFrom('/api/user/context', { authorization: `Bearer ${facilityAdmin}`, 'x-forwarded-for': '10.9.8.7' });
      expect(spoofed.status).toBe(403);
      expect(spoofed.body.code).toBe(ErrorCode.Forbidden);
      // The trusted proxy (127.0.0.1) naming the same address is believed.
      const proxied = await api('GET', '/api/user/context', { token: facilityAdmin, headers: { 'x-forwarded-for': '10.9.8.7' } });
      expect(proxied.status).toBe(200);
    } finally {
      await api('PUT', settings, { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: false, ipAddresses: '10.9.8.0/24' } });
    }
  });
});
