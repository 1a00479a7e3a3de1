import { AGE_BANDS, CRITERIA, DIVISION_GENDERS, DIVISION_TYPES, NO_DIVISION_SPECIFIED, REFERRING_TYPES, REQUEST_TYPES, SOURCE_TYPES } from '../enums';
import { US_STATE_CODES } from '../states';
import { contactsSchema, id, mediumText, optionalLargeText, optionalMediumText, ZIP_PATTERN } from './common';

/** Facility general tab (spec 03 §3 Facility, §5 Facility). */
export const facilitySchema = {
  $id: 'facility',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'address', 'geoPosition'],
  properties: {
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
  },
} as const;

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
export const divisionSchema = {
  $id: 'division',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'contacts'],
  properties: {
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
    score: { type: ['integer', 'null'], minimum: 0, maximum: 100 },
  },
} as const;

/** ra-data-simple-rest `filter` of GET /api/facilities (spec 03 §7). */
export const facilityListFilterSchema = {
  $id: 'facilityListFilter',
  type: 'object',
  additionalProperties: false,
  properties: {
    q: optionalMediumText,
    name: optionalMediumText,
    showActiveOnly: { type: ['boolean', 'null'] },
    states: { type: 'array', items: { type: 'string', enum: US_STATE_CODES } },
    cities: { type: 'array', items: mediumText, maxItems: 100 },
    divisionType: { type: ['string', 'null'], enum: [...DIVISION_TYPES, NO_DIVISION_SPECIFIED, null] },
    includeNoDivisionSpecified: { type: ['boolean', 'null'] },
    id: { type: 'array', items: id, maxItems: 1000 },
  },
} as const;

export const divisionListFilterSchema = {
  $id: 'divisionListFilter',
  type: 'object',
  additionalProperties: false,
  properties: {
    q: optionalMediumText,
    type: { type: ['string', 'null'], enum: [...DIVISION_TYPES, null] },
    showActiveOnly: { type: ['boolean', 'null'] },
    id: { type: 'array', items: id, maxItems: 1000 },
  },
} as const;
