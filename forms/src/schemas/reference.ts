import { REQUEST_TYPES, SOURCE_TYPES } from '../enums';
import type { FieldError } from '../errors';
import { US_STATE_CODES } from '../states';
import { id, idsFilter, mediumText, optionalLargeText, optionalMediumText, showActiveOnlyFilter, ZIP_PATTERN, objectSchema } from './common';

/**
 * Reference data of spec 03 (§3 Group organization, Payer, Billing code, Patient tag; §5 their
 * rules): group organizations, payers, billing codes and patient tags, managed by the ITP admin.
 */

const idList = { type: 'array', items: id, uniqueItems: true, maxItems: 2000 } as const;
const flag = { type: 'boolean' } as const;

/* ---------- Group organization ---------- */

/** Add/edit modal of /group-organizations (spec 03 §5 Group). */
export const groupOrganizationSchema = objectSchema('groupOrganization', ['name', 'isActive', 'mfaEnabled', 'states', 'counties', 'facilities', 'excludedFacilities', 'placementFacilities'], {
  name: mediumText,
  description: optionalLargeText,
  isActive: flag,
  mfaEnabled: flag,
  states: { type: 'array', items: { type: 'string', enum: US_STATE_CODES }, uniqueItems: true, minItems: 1 },
  // No county data set yet: county names are free text, for the chosen states.
  counties: { type: 'array', items: mediumText, uniqueItems: true, maxItems: 1000 },
  facilities: { ...idList, minItems: 1 },
  excludedFacilities: idList,
  placementFacilities: idList,
  // Read-only fields of the record (react-admin sends the whole record back on update; ignored).
  id: { readOnly: true },
});

/** Facilities and excluded facilities exclude each other (spec 03 §5 Group). */
export function groupOrganizationRules(d: any): FieldError[] {
  const included = new Set<number>(d.facilities ?? []);
  const both = (d.excludedFacilities ?? []).filter((f: number) => included.has(f));
  return both.length
    ? [{ field: 'excludedFacilities', key: 'alsoIncluded', message: 'A facility cannot be both included and excluded' }]
    : [];
}

export const groupOrganizationListFilterSchema = objectSchema('groupOrganizationListFilter', [], {
  q: optionalMediumText,
  name: optionalMediumText,
  showActiveOnly: showActiveOnlyFilter,
  id: idsFilter,
});

export interface GroupOrganizationRecord {
  id: number;
  name: string;
  description: string | null;
  isActive: boolean;
  mfaEnabled: boolean;
  states: string[];
  counties: string[];
  facilities: number[];
  excludedFacilities: number[];
  placementFacilities: number[];
}

/* ---------- Payer ---------- */

export const payerAddressSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    streetLine: optionalMediumText,
    city: optionalMediumText,
    state: { type: ['string', 'null'], enum: [...US_STATE_CODES, null] },
    zipCode: { type: ['string', 'null'], pattern: ZIP_PATTERN },
    phone: optionalMediumText,
  },
} as const;

/** /payers/create and /payers/{id} (spec 03 §3 Payer, §5 Payer). */
export const payerSchema = objectSchema('payer', ['name'], {
  name: mediumText,
  code: optionalMediumText,
  isActive: { type: 'boolean', default: true },
  planName: optionalMediumText,
  address: payerAddressSchema,
  planPackageId: optionalMediumText,
  /** Confirmed: save even though patients use the payer (spec 03 §4 Payer). */
  forceUpdate: { type: ['boolean', 'null'] },
  id: { readOnly: true },
  fullAddress: { readOnly: true },
});

export const payerListFilterSchema = objectSchema('payerListFilter', [], {
  q: optionalMediumText,
  name: optionalMediumText,
  showActiveOnly: showActiveOnlyFilter,
  id: idsFilter,
});

export const PLAN_NAME_REQUIRED = 'Plan Name is required';

/** GET /api/payers/insurance: the plan and address fields of a plan (spec 03 §3, §5 Payer). */
export const payerInsuranceQuerySchema = objectSchema('payerInsuranceQuery', [], {
  planName: optionalMediumText,
  payerId: { type: ['string', 'null'], pattern: '^\\d{1,10}$' },
});

export function payerInsuranceQueryRules(d: any): FieldError[] {
  return d.planName ? [] : [{ field: 'planName', key: 'required', message: PLAN_NAME_REQUIRED }];
}

export interface PayerAddress {
  streetLine?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  phone?: string | null;
}

export interface PayerRecord {
  id: number;
  name: string;
  code: string | null;
  isActive: boolean;
  planName: string | null;
  address: PayerAddress | null;
  fullAddress: string | null;
  planPackageId: string | null;
}

/** One result of GET /api/payers/insurance. */
export interface PayerInsuranceRecord {
  payerId: number;
  payerName: string;
  planName: string;
  memberId: string | null;
  insuranceAddress: string | null;
  insuranceCity: string | null;
  insuranceState: string | null;
  insuranceZipCode: string | null;
  insurancePhoneNumber: string | null;
}

/** A payer's address on one line: "1 Main St, Tampa, FL 33602". */
export function payerFullAddress(a: PayerAddress | null | undefined): string | null {
  if (!a) return null;
  const stateZip = [a.state, a.zipCode].filter(Boolean).join(' ');
  const parts = [a.streetLine, a.city, stateZip].filter((p) => p && String(p).trim());
  return parts.length ? parts.join(', ') : null;
}

/** The payer look-up shows a result's first two addresses; the rest go in a tooltip (spec 02 §3). */
export const PAYER_ADDRESSES_SHOWN = 2;

/**
 * The payer look-up's results (GET /api/payers/insurance) as the insurance form lists them: one
 * entry per payer and plan, with its distinct addresses split into the shown ones and the rest.
 */
export function payerLookupEntries(records: readonly PayerInsuranceRecord[]): Array<{
  payerId: number;
  payerName: string;
  planName: string;
  shown: string[];
  more: string[];
}> {
  const byKey = new Map<string, { payerId: number; payerName: string; planName: string; addresses: string[] }>();
  for (const r of records) {
    const key = `${r.payerId}\u0000${r.planName}`;
    const entry = byKey.get(key) ?? { payerId: r.payerId, payerName: r.payerName, planName: r.planName, addresses: [] };
    const line = payerFullAddress({ streetLine: r.insuranceAddress, city: r.insuranceCity, state: r.insuranceState, zipCode: r.insuranceZipCode });
    if (line && !entry.addresses.includes(line)) entry.addresses.push(line);
    byKey.set(key, entry);
  }
  return [...byKey.values()].map(({ addresses, ...e }) => ({ ...e, shown: addresses.slice(0, PAYER_ADDRESSES_SHOWN), more: addresses.slice(PAYER_ADDRESSES_SHOWN) }));
}

/* ---------- Billing code ---------- */

/** Create/edit modal of /billing-codes (spec 03 §3 Billing code, §5). */
export const billingCodeSchema = objectSchema('billingCode', ['code', 'description', 'sourceDivisionTypes', 'requestTypes'], {
  code: mediumText,
  description: mediumText,
  sourceDivisionTypes: { type: 'array', items: { type: 'string', enum: SOURCE_TYPES }, uniqueItems: true, minItems: 1 },
  requestTypes: { type: 'array', items: { type: 'string', enum: REQUEST_TYPES }, uniqueItems: true, minItems: 1 },
  isActive: { type: 'boolean', default: true },
  id: { readOnly: true },
});

export const billingCodeListFilterSchema = objectSchema('billingCodeListFilter', [], {
  q: optionalMediumText,
  showActiveOnly: showActiveOnlyFilter,
  sourceDivisionType: { type: ['string', 'null'], enum: [...SOURCE_TYPES, null] },
  requestType: { type: ['string', 'null'], enum: [...REQUEST_TYPES, null] },
  id: idsFilter,
});

export interface BillingCodeRecord {
  id: number;
  code: string;
  description: string;
  sourceDivisionTypes: string[];
  requestTypes: string[];
  isActive: boolean;
}

/* ---------- Patient tag ---------- */

/** /patient-tags/create (spec 03 §5 Patient tag). */
export const patientTagSchema = objectSchema('patientTag', ['name'], {
  name: mediumText,
  id: { readOnly: true },
});

export const patientTagListFilterSchema = objectSchema('patientTagListFilter', [], {
  q: optionalMediumText,
  id: idsFilter,
});

export interface PatientTagRecord {
  id: number;
  name: string;
}

/* ---------- Response schemas, for the OpenAPI document ---------- */

const strip = <T extends { properties: Record<string, unknown> }>(s: T, ...keys: string[]) =>
  Object.fromEntries(Object.entries(s.properties).filter(([k]) => !keys.includes(k)));

export const groupOrganizationRecordSchema = {
  type: 'object',
  properties: { id, ...strip(groupOrganizationSchema, 'id') },
} as const;
export const payerRecordSchema = {
  type: 'object',
  properties: { id, ...strip(payerSchema, 'id', 'forceUpdate', 'fullAddress'), fullAddress: optionalMediumText },
} as const;
export const payerInsuranceRecordSchema = {
  type: 'object',
  properties: {
    payerId: id,
    payerName: mediumText,
    planName: mediumText,
    memberId: optionalMediumText,
    insuranceAddress: optionalMediumText,
    insuranceCity: optionalMediumText,
    insuranceState: optionalMediumText,
    insuranceZipCode: optionalMediumText,
    insurancePhoneNumber: optionalMediumText,
  },
} as const;
export const billingCodeRecordSchema = {
  type: 'object',
  properties: { id, ...strip(billingCodeSchema, 'id') },
} as const;
export const patientTagRecordSchema = {
  type: 'object',
  properties: { id, name: mediumText },
} as const;
