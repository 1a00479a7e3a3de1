import ipaddr from 'ipaddr.js';
import type { FieldError } from '../errors';
import { INVALID_IP_LIST_MESSAGE, IP_REQUIRED_MESSAGE } from './organization';

/**
 * The IP allow-list (spec 03 §5): parsing and matching with ipaddr.js, and the settings form's
 * rules. Apart from the schemas (organization.ts) so that only what checks a list loads ipaddr.js.
 */

/** A comma-separated list of IPv4 addresses, each with an optional /0–32 mask (spec 03 §5). Blank entries are not allowed. */
export function parseIpList(list: string): string[] | null {
  const entries = list.split(',').map((e) => e.trim());
  if (entries.length === 0 || entries.some((e) => !ipv4Range(e))) return null;
  return entries;
}

/** "a.b.c.d" or "a.b.c.d/n" in four-part decimal (ipaddr.js would also take "10.1" or octal). */
function ipv4Range(entry: string): [ipaddr.IPv4, number] | null {
  const [addr, mask, ...rest] = entry.split('/');
  if (rest.length || !ipaddr.IPv4.isValidFourPartDecimal(addr) || (mask !== undefined && !/^(3[0-2]|[12]?\d)$/.test(mask))) return null;
  return [ipaddr.IPv4.parse(addr), mask === undefined ? 32 : Number(mask)];
}

/** A matcher for a valid list (see parseIpList); an IPv4-mapped IPv6 client address (::ffff:a.b.c.d) counts as IPv4. */
export function ipListMatcher(entries: string[]): (clientIp: string) => boolean {
  const ranges = entries.map(ipv4Range).filter((r): r is [ipaddr.IPv4, number] => r !== null);
  return (clientIp: string) => {
    if (!ipaddr.isValid(clientIp)) return false;
    const ip = ipaddr.process(clientIp);
    return ip.kind() === 'ipv4' && ranges.some((range) => (ip as ipaddr.IPv4).match(range));
  };
}

/** Required when enabled ('IP Address is required'); a valid list whenever given ('Invalid IP address list'). */
export function ipWhiteListSettingsRules(d: any): FieldError[] {
  const list = d.ipAddresses;
  if (list === null || list === undefined || list === '')
    return d.ipWhiteListEnabled ? [{ field: 'ipAddresses', key: 'required', message: IP_REQUIRED_MESSAGE }] : [];
  if (typeof list === 'string' && !parseIpList(list))
    return [{ field: 'ipAddresses', key: 'invalidIpList', message: INVALID_IP_LIST_MESSAGE }];
  return [];
}
