import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js';

/**
 * Phone numbers (spec 03 §5): entered in US format — (XXX) XXX-XXXX, a leading 1 or + allowed —
 * or, when the international-phones application setting is on, in international format (+44 …).
 * Stored in E.164 (+18135550100); shown as (813) 555-0100 for North American numbers and in
 * international format otherwise. libphonenumber-js does the parsing; only the policy lives here.
 */
const policy = { international: false };

/** The API (from its configuration) and the browser (from GET /api/settings) set the policy once. */
export function setInternationalPhones(on: boolean): void {
  policy.international = on;
}

/** Digits, spaces, dots, dashes, parentheses and one leading plus: no letters, no extension text. */
const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;

function parse(value: string): PhoneNumber | undefined {
  if (!PHONE_CHARACTERS.test(value)) return undefined;
  const phone = parsePhoneNumberFromString(value, 'US');
  return phone && !phone.ext ? phone : undefined;
}

const isNorthAmerican = (phone: PhoneNumber) => phone.countryCallingCode === '1';

/** Whether a number is accepted under the current policy: ten North American digits, or a valid international number when allowed. */
export function isAcceptedPhone(value: string, international = policy.international): boolean {
  const phone = parse(value);
  if (!phone) return false;
  // A North American number needs its ten digits (test exchanges like 555 included); another
  // country's must be a real number of that country, and allowed.
  return isNorthAmerican(phone) ? phone.nationalNumber.length === 10 : international && phone.isValid();
}

/** The stored form (E.164) of an accepted number; anything else is returned as given. */
export function toStoredPhone(value: string | null | undefined): string | null {
  if (!value) return null;
  const phone = parse(value);
  return phone && (isNorthAmerican(phone) ? phone.nationalNumber.length === 10 : phone.isPossible()) ? phone.number : value;
}

/** "+18135550100" → "(813) 555-0100"; "+442079460958" → "+44 20 7946 0958"; anything else as given. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const phone = parse(value);
  if (!phone) return value;
  if (isNorthAmerican(phone) && phone.nationalNumber.length === 10) {
    const d = phone.nationalNumber;
    return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
  }
  return phone.isPossible() ? phone.formatInternational() : value;
}

/**
 * The phone and fax lines of a facility's or division's contacts (phone1, phone1Ext, phone2, …,
 * fax2Ext), each with its extension: [{ label: 'Phone', value: '(904) 555-0102 ext. 12' }].
 * Phones first, then faxes; empty numbers left out.
 */
export function contactLines(contacts: unknown): Array<{ label: 'Phone' | 'Fax'; value: string }> {
  if (!contacts || typeof contacts !== 'object') return [];
  const c = contacts as Record<string, unknown>;
  const out: Array<{ label: 'Phone' | 'Fax'; value: string }> = [];
  for (const [kind, label] of [['phone', 'Phone'], ['fax', 'Fax']] as const)
    for (const n of [1, 2]) {
      const number = c[`${kind}${n}`];
      if (typeof number !== 'string' || !number.trim()) continue;
      const ext = c[`${kind}${n}Ext`] ?? c[`${kind}${n}Extension`];
      out.push({ label, value: `${formatPhone(number)}${typeof ext === 'string' && ext.trim() ? ` ext. ${ext.trim()}` : ''}` });
    }
  return out;
}
