import { REQUEST_TYPES, STATE_RESTRICTION_TYPES, type DivisionType, type RequestType } from '../enums';
import type { FieldError } from '../errors';
import { US_STATE_CODES } from '../states';
import { id, idsFilter, optionalMediumText, objectSchema } from './common';
import { acceptedPatientsSchema, type AcceptedPatientsRecord } from './facility';

/*
 * The ITP admin's facility detail tabs (spec 03 §2 "Facility detail tabs", §3, §5): credentialed
 * providers, preferred facilities, evaluation forms and state restrictions.
 */

export const StateRestrictionType = {
  NoRestrictions: 'NoRestrictions',
  OnlyPopulateFacilitiesWithinTravelTime: 'OnlyPopulateFacilitiesWithinTravelTime',
  DoNotPopulateFacilities: 'DoNotPopulateFacilities',
} as const;
export type StateRestrictionType = (typeof STATE_RESTRICTION_TYPES)[number];

/** Preferred facilities tab page size (spec 03 §9). */
export const PREFERRED_FACILITIES_PAGE_SIZE = 10;
/** Longest travel time a restriction may name: 7 days, in seconds. */
export const MAX_WITHIN_TRAVEL_TIME_SECONDS = 7 * 24 * 3600;

const REQUIRED = 'This field is required';

/** Credentialed provider add/edit modal (spec 03 §3, §5 Credentialed provider). */
export const credentialedProviderSchema = objectSchema('credentialedProvider', ['providerId', 'divisionsIds', 'addToNewDivisions', 'acceptedPatients'], {
  providerId: id,
  divisionsIds: { type: 'array', items: id, minItems: 1, maxItems: 1000, uniqueItems: true },
  addToNewDivisions: { type: 'boolean' },
  acceptedPatients: acceptedPatientsSchema,
});

export const credentialedProviderListFilterSchema = objectSchema('credentialedProviderListFilter', [], {
  q: optionalMediumText,
  divisionsIds: { type: 'array', items: id, maxItems: 1000 },
  id: idsFilter,
});

/** Preferred facility add modal (spec 03 §5 Preferred facility). */
export const preferredFacilitySchema = {
  $id: 'preferredFacility',
  type: 'object',
  additionalProperties: false,
  required: ['facilityId'],
  properties: { facilityId: id },
} as const;

export const preferredFacilityListFilterSchema = objectSchema('preferredFacilityListFilter', [], {
  q: optionalMediumText,
  id: idsFilter,
});

/** One auto-saved row of the evaluation forms tab (spec 03 §3 Evaluation-form setting). */
export const facilityEvaluationFormSchema = objectSchema('facilityEvaluationForm', ['requestType', 'evaluationFormId', 'isAthenaBilled'], {
  requestType: { type: 'string', enum: REQUEST_TYPES },
  /** null: no evaluation form chosen for this request type. */
  evaluationFormId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
  isAthenaBilled: { type: 'boolean' },
});

/** The restrictions tab's checkbox (auto-submitted after a confirmation). */
export const populateOutOfStateFacilitiesSchema = {
  $id: 'populateOutOfStateFacilities',
  type: 'object',
  additionalProperties: false,
  required: ['populateOutOfStateFacilities'],
  properties: { populateOutOfStateFacilities: { type: 'boolean' } },
} as const;

/** PUT .../state-restrictions/{state}: the wire format (travel time in seconds). */
export const stateRestrictionSchema = objectSchema('stateRestriction', ['type'], {
  type: { type: 'string', enum: STATE_RESTRICTION_TYPES },
  withinTravelTime: { type: ['integer', 'null'], minimum: 0, maximum: MAX_WITHIN_TRAVEL_TIME_SECONDS },
  // Echoed by the UI from the row; the path names the state, these are ignored.
  restrictionId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
  state: { type: ['string', 'null'], enum: [...US_STATE_CODES, null] },
});

/** The state restriction edit modal: hours and minutes, turned into seconds on save. */
export const stateRestrictionFormSchema = objectSchema('stateRestrictionForm', ['type'], {
  type: { type: 'string', enum: STATE_RESTRICTION_TYPES },
  hours: { type: ['integer', 'null'], minimum: 0, maximum: 168 },
  minutes: { type: ['integer', 'null'], minimum: 0, maximum: 10080 },
});

const isTravelTime = (t: unknown) => t === StateRestrictionType.OnlyPopulateFacilitiesWithinTravelTime;

/** withinTravelTime is required for the travel-time type. */
export const stateRestrictionRules = (d: any): FieldError[] =>
  isTravelTime(d.type) && (d.withinTravelTime === null || d.withinTravelTime === undefined)
    ? [{ field: 'withinTravelTime', key: 'required', message: REQUIRED }]
    : [];

/** Hours and minutes are required (minimum 0) for the travel-time type (spec 03 §5 State restriction). */
export const stateRestrictionFormRules = (d: any): FieldError[] => {
  if (!isTravelTime(d.type)) return [];
  const errors: FieldError[] = [];
  for (const f of ['hours', 'minutes'])
    if (d[f] === null || d[f] === undefined) errors.push({ field: f, key: 'required', message: REQUIRED });
  return errors;
};

/** Seconds ↔ hours and minutes of the edit modal. */
export const travelTimeToSeconds = (hours: number, minutes: number) => hours * 3600 + minutes * 60;
export const secondsToTravelTime = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined
    ? { hours: null, minutes: null }
    : { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) };

/** addToNewDivisions follows "all divisions chosen" (spec 03 §4 Credentialed provider). */
export const allDivisionsChosen = (chosen: number[], offered: number[]) =>
  offered.length > 0 && offered.every((id) => chosen.includes(id));

/* ---------- What the API returns ---------- */

export interface CredentialedProviderRecord {
  /** The provider's user id (the row's identity within the facility). */
  id: number;
  provider: { id: number; fullName: string; providerType: string | null };
  divisions: Array<{ id: number; name: string }>;
  addToNewDivisions: boolean;
  acceptedPatients: AcceptedPatientsRecord;
}

/** A provider the add modal may offer (ITP provider users not yet credentialed here). */
export interface ProviderChoice {
  id: number;
  fullName: string;
  providerType: string | null;
}

export interface PreferredFacilityRecord {
  /** The preferred facility's id. */
  id: number;
  name: string;
  address: { city: string; state: string };
  divisions: Array<{ id: number; name: string; type: DivisionType }>;
}

export interface EvaluationFormLookup {
  id: number;
  name: string;
  isDefault: boolean;
}

export interface FacilityEvaluationFormRecord {
  /** null until the row is first saved. */
  id: number | null;
  requestType: RequestType;
  evaluationFormId: number | null;
  isAthenaBilled: boolean;
}

export interface StateRestrictionRecord {
  /** The state's code (the row's identity and the PUT path). */
  id: string;
  restrictionId: number | null;
  state: string;
  stateName: string;
  type: StateRestrictionType;
  withinTravelTime: number | null;
  /** Seconds to the closest receiving facility in that state; null when unknown. */
  closestTravelTime: number | null;
}

/** The FHIR dialects of the EHRs the product connects to (issue 16): how a patient id is searched. */
export const EHR_DIALECTS = ['epic', 'athena'] as const;
export type EhrDialectName = (typeof EHR_DIALECTS)[number];
const httpUrl = { type: 'string', maxLength: 1000, pattern: '^https?://[^\\s/$.?#][^\\s]*$' } as const;

/** PUT /api/facilities/{id}/ehr-connection: the facility's FHIR endpoint and SMART client (the key is generated, never sent). */
export const facilityEhrConnectionSchema = objectSchema('facilityEhrConnection', ['dialect', 'baseUrl', 'tokenUrl', 'clientId'], {
  dialect: { type: 'string', enum: EHR_DIALECTS, 'x-errorKey': 'invalid', 'x-errorMessage': 'Choose Epic or athenahealth' },
  baseUrl: httpUrl,
  tokenUrl: httpUrl,
  clientId: { type: 'string', minLength: 1, maxLength: 255 },
  /** The `kid` of the key the EHR holds; set by key generation, editable for a key registered under another id. */
  keyId: { type: ['string', 'null'], maxLength: 255 },
});

/** What GET /api/facilities/{id}/ehr-connection answers: never the private key. */
export interface FacilityEhrConnectionRecord {
  facilityId: number;
  dialect: EhrDialectName | null;
  baseUrl: string | null;
  tokenUrl: string | null;
  clientId: string | null;
  keyId: string | null;
  hasPrivateKey: boolean;
  /** The facility's EHR department id (the evaluation forms tab's own form). */
  departmentId: string | null;
  /** Department id and a complete connection: the facility's divisions are EHR-integrated. */
  isIntegrated: boolean;
  updatedAt: string | null;
}

/** POST …/ehr-connection/key: the public half to register with the EHR. */
export interface FacilityEhrKeyRecord {
  keyId: string;
  publicJwk: Record<string, unknown>;
  jwks: { keys: Record<string, unknown>[] };
}

/** POST …/ehr-connection/test, when the EHR accepted the key. */
export interface FacilityEhrTestRecord {
  ok: true;
  fhirVersion: string;
  software: string | null;
}
