import { normalizeInput } from '../normalize';
import { validate } from '../validation';
import { ipListMatcher, parseIpList } from './ip-list';

describe('IP allow-list rules', () => {
  const check = (body: Record<string, unknown>) => validate('ipWhiteListSettings', normalizeInput(body)).map((e) => e.message);

  it('accepts IPv4 addresses with optional /0-32 masks', () => {
    expect(parseIpList('10.0.0.1, 192.168.0.0/16,0.0.0.0/0, 255.255.255.255/32')).toHaveLength(4);
    expect(check({ facilityId: null, ipWhiteListEnabled: true, ipAddresses: ' 10.0.0.1 , 10.1.0.0/16 ' })).toEqual([]);
    expect(check({ facilityId: 3, ipWhiteListEnabled: false, ipAddresses: null })).toEqual([]);
  });

  it.each(['256.0.0.1', '10.0.0', '10.0.0.1/33', '10.0.0.1/', '10.0.0.1,', 'a.b.c.d', '::1', '01.2.3.4x'])('refuses %s', (list) => {
    expect(check({ ipWhiteListEnabled: true, ipAddresses: list })).toEqual(['Invalid IP address list']);
  });

  it('requires the list when enabled', () => {
    expect(check({ ipWhiteListEnabled: true, ipAddresses: '  ' })).toEqual(['IP Address is required']);
  });

  it('matches addresses within the masks, IPv4-mapped IPv6 included', () => {
    const allows = ipListMatcher(parseIpList('10.1.2.0/24, 172.16.5.9, 192.168.0.0/16')!);
    expect(['10.1.2.0', '10.1.2.255', '172.16.5.9', '::ffff:192.168.77.1'].every(allows)).toBe(true);
    expect(['10.1.3.0', '172.16.5.10', '127.0.0.1', '::1', 'garbage'].some(allows)).toBe(false);
    expect(ipListMatcher(parseIpList('0.0.0.0/0')!)('8.8.8.8')).toBe(true);
  });
});

describe('SSO rules', () => {
  const check = (body: Record<string, unknown>) => validate('externalLoginSettings', normalizeInput(body));

  it('requires entity id, sign-in URL and certificate only when enabled', () => {
    expect(check({ enabled: false })).toEqual([]);
    expect(check({ enabled: true }).map((e) => e.field)).toEqual(['identityProviderEntityId', 'signInUrl', 'x509Certificate']);
  });

  it("flags text that is not a PEM certificate as 'Invalid X509 Certificate'", () => {
    const errors = check({ enabled: true, identityProviderEntityId: 'idp', signInUrl: 'https://idp.test/sso', x509Certificate: 'not a cert!' });
    expect(errors).toEqual([{ field: 'x509Certificate', key: 'invalidCertificate', message: 'Invalid X509 Certificate' }]);
  });
});
