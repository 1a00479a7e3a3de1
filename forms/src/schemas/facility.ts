import { DEFAULT_DIVISION_SCORE } from '../constants';
import {
  AGE_BANDS,
  CRITERIA,
  DIVISION_GENDERS,
  DIVISION_TYPES,
  NO_DIVISION_SPECIFIED,
  REFERRING_TYPES,
  REQUEST_TYPES,
  SOURCE_TYPES,
  type DivisionType,
} from '../enums';
import { US_STATE_CODES } from '../states';
import { contactsSchema, id, idsFilter, mediumText, optionalLargeText, optionalMediumText, showActiveOnlyFilter, ZIP_PATTERN, objectSchema } from './common';

/** Facility general tab (spec 03 §3 Facility, §5 Facility). */
export const facilitySchema = objectSchema('facility', ['name', 'address', 'geoPosition'], {
  name: mediumText,
  description: optionalLargeText,
  allowReferringDivisionsAccess: { type: 'boolean', default: false },
  allowPlacementOnlyCases: { type: 'boolean', default: false },
  isActive: { type: 'boolean', default: true },
  isMfaEnabled: { type: 'boolean', default: false },
  isGeoPositionManually: { type: 'boolean', default: false },
  ehrDepartmentId: optionalMediumText,
  address: {
    type: 'object',
    additionalProperties: false,
    required: ['streetLine', 'city', 'state', 'zipCode'],
    properties: {
      streetLine: mediumText,
      apartmentNumber: optionalMediumText,
      city: mediumText,
      state: { type: 'string', enum: US_STATE_CODES },
      zipCode: { type: 'string', pattern: ZIP_PATTERN },
      county: optionalMediumText,
    },
  },
  geoPosition: {
    type: 'object',
    additionalProperties: false,
    required: ['latitude', 'longitude'],
    properties: {
      latitude: { type: 'number', minimum: -90, maximum: 90 },
      longitude: { type: 'number', minimum: -180, maximum: 180 },
    },
  },
  contacts: contactsSchema,
  // Read-only fields of the record: react-admin sends the whole record back on update; the
  // server ignores them.
  id: { readOnly: true },
  divisionTypes: { readOnly: true },
  hasActiveSourceDivision: { readOnly: true },
  hasActiveReferringDivision: { readOnly: true },
});

/** The only field a facility admin may change on her own facility. */
export const facilityMfaSchema = {
  $id: 'facilityMfa',
  type: 'object',
  additionalProperties: false,
  required: ['isMfaEnabled'],
  properties: { isMfaEnabled: { type: 'boolean' } },
} as const;

const ageBand = {
  type: 'object',
  additionalProperties: false,
  required: ['isActive'],
  properties: {
    isActive: { type: 'boolean' },
    from: { type: ['integer', 'null'], minimum: 1, maximum: 120 },
    to: { type: ['integer', 'null'], minimum: 1, maximum: 120 },
  },
} as const;

export const acceptedPatientsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['allAges'],
  properties: {
    allAges: { type: 'boolean' },
    ...Object.fromEntries(AGE_BANDS.map((b) => [b, ageBand])),
  },
} as const;

/** Division add/edit modal (spec 03 §3 Division, §5 Division). Type-specific rules are in divisionRules. */
export const divisionSchema = objectSchema('division', ['name', 'type', 'contacts'], {
  name: mediumText,
  npi: optionalMediumText,
  isActive: { type: 'boolean', default: true },
  description: optionalLargeText,
  type: { type: 'string', enum: DIVISION_TYPES },
  contacts: contactsSchema,
  // Source only
  sourceType: { type: ['string', 'null'], enum: [...SOURCE_TYPES, null] },
  documentInEHR: { type: ['boolean', 'null'] },
  noPlacement: { type: ['boolean', 'null'] },
  outcomeRequired: { type: ['boolean', 'null'] },
  showBillingCode: { type: ['boolean', 'null'] },
  requestTypes: { type: ['array', 'null'], items: { type: 'string', enum: REQUEST_TYPES }, uniqueItems: true },
  // Referring only
  referringType: { type: ['string', 'null'], enum: [...REFERRING_TYPES, null] },
  criteria: { type: ['array', 'null'], items: { type: 'string', enum: CRITERIA }, uniqueItems: true },
  acceptedPatients: { anyOf: [acceptedPatientsSchema, { type: 'null' }] },
  genders: { type: ['array', 'null'], items: { type: 'string', enum: DIVISION_GENDERS }, uniqueItems: true },
  veteranOnly: { type: ['boolean', 'null'] },
  extendMaximumCallbackTime: { type: ['boolean', 'null'] },
  // Applied when the field is absent; the server keeps it only for a Referring division.
  score: { type: ['integer', 'null'], minimum: 0, maximum: 100, default: DEFAULT_DIVISION_SCORE },
  // Read-only fields of the record (sent back by react-admin on update; ignored).
  id: { readOnly: true },
  facilityId: { readOnly: true },
});

/** ra-data-simple-rest `filter` of GET /api/facilities (spec 03 §7). */
export const facilityListFilterSchema = objectSchema('facilityListFilter', [], {
  q: optionalMediumText,
  name: optionalMediumText,
  showActiveOnly: showActiveOnlyFilter,
  states: { type: 'array', items: { type: 'string', enum: US_STATE_CODES } },
  cities: { type: 'array', items: mediumText, maxItems: 100 },
  divisionType: { type: ['string', 'null'], enum: [...DIVISION_TYPES, NO_DIVISION_SPECIFIED, null] },
  includeNoDivisionSpecified: { type: ['boolean', 'null'] },
  id: idsFilter,
});

export const divisionListFilterSchema = objectSchema('divisionListFilter', [], {
  q: optionalMediumText,
  type: { type: ['string', 'null'], enum: [...DIVISION_TYPES, null] },
  showActiveOnly: showActiveOnlyFilter,
  id: idsFilter,
});

/* ---------- What the API returns (spec 03 §3 Facility, Division, Lookups) ---------- */

export interface ContactsRecord {
  phone1?: string | null; phone1Ext?: string | null; phone2?: string | null; phone2Ext?: string | null;
  fax1?: string | null; fax1Ext?: string | null; fax2?: string | null; fax2Ext?: string | null;
}

/** GET /api/facilities/{id} and each row of GET /api/facilities. */
export interface FacilityRecord {
  id: number;
  name: string;
  description: string | null;
  allowReferringDivisionsAccess: boolean;
  allowPlacementOnlyCases: boolean;
  isActive: boolean;
  isMfaEnabled: boolean;
  isGeoPositionManually: boolean;
  ehrDepartmentId: string | null;
  address: { streetLine: string; apartmentNumber: string | null; city: string; state: string; zipCode: string; county: string | null };
  geoPosition: { latitude: number; longitude: number };
  contacts: ContactsRecord;
  /** Types of the facility's active divisions, Source first ([] when it has none: the "no divisions" note). */
  divisionTypes: DivisionType[];
  hasActiveSourceDivision: boolean;
  hasActiveReferringDivision: boolean;
}

/** GET /api/facilities/lookups (sorted by name). */
export interface FacilityLookup {
  id: number;
  name: string;
  isActive: boolean;
  address: { city: string; state: string };
  hasActiveSourceDivision: boolean;
  hasActiveReferringDivision: boolean;
}

export interface AcceptedPatientsRecord {
  allAges: boolean;
  adolescent?: { isActive: boolean; from: number | null; to: number | null };
  adult?: { isActive: boolean; from: number | null; to: number | null };
  geriatric?: { isActive: boolean; from: number | null; to: number | null };
}

/** GET /api/facilities/{id}/divisions/{divisionId}; fields of the other type are null. */
export interface DivisionRecord {
  id: number;
  facilityId: number;
  name: string;
  npi: string | null;
  isActive: boolean;
  description: string | null;
  type: DivisionType;
  contacts: ContactsRecord;
  sourceType: string | null;
  documentInEHR: boolean | null;
  noPlacement: boolean | null;
  outcomeRequired: boolean | null;
  showBillingCode: boolean | null;
  requestTypes: string[] | null;
  referringType: string | null;
  criteria: string[] | null;
  acceptedPatients: AcceptedPatientsRecord | null;
  genders: string[] | null;
  veteranOnly: boolean | null;
  extendMaximumCallbackTime: boolean | null;
  score: number | null;
}

/** GET /api/facilities/{id}/divisions/lookups (sorted by name). */
export interface DivisionLookup {
  id: number;
  name: string;
  isActive: boolean;
  type: DivisionType;
}

/** GET /api/facilities/{id}/divisions/{divisionId}/credentialed-providers/lookups (sorted by name). */
export interface CredentialedProviderLookup {
  id: number;
  fullName: string;
  providerType: 'MD' | 'ARNP' | null;
}

const { id: _fid, divisionTypes: _dt, hasActiveSourceDivision: _hs, hasActiveReferringDivision: _hr, ...facilityWritable } =
  facilitySchema.properties;
const { id: _did, facilityId: _dfid, ...divisionWritable } = divisionSchema.properties;
const flag = { type: 'boolean' } as const;

/** JSON Schemas of the responses, for the OpenAPI document. */
export const facilityRecordSchema = {
  type: 'object',
  properties: {
    id,
    ...facilityWritable,
    divisionTypes: { type: 'array', items: { type: 'string', enum: DIVISION_TYPES } },
    hasActiveSourceDivision: flag,
    hasActiveReferringDivision: flag,
  },
} as const;
export const facilityLookupSchema = {
  type: 'object',
  properties: {
    id,
    name: mediumText,
    isActive: flag,
    address: { type: 'object', properties: { city: mediumText, state: { type: 'string' } } },
    hasActiveSourceDivision: flag,
    hasActiveReferringDivision: flag,
  },
} as const;
export const divisionRecordSchema = {
  type: 'object',
  properties: { id, facilityId: id, ...divisionWritable },
} as const;
export const divisionLookupSchema = {
  type: 'object',
  properties: { id, name: mediumText, isActive: flag, type: { type: 'string', enum: DIVISION_TYPES } },
} as const;
