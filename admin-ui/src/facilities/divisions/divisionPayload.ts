import { AGE_BANDS, DEFAULT_DIVISION_SCORE, DivisionType, toStoredPhone, type AgeBand, type DivisionRecord as ApiDivisionRecord } from '@crisis/forms/core';
import { contactsPayload } from '../../common/ContactsFields';
import { schemaValidator } from '../../common/schemaValidation';

export interface AgeBandValue {
  isActive: boolean;
  from: number | null;
  to: number | null;
}

export type AcceptedPatients = { allAges: boolean } & Record<AgeBand, AgeBandValue>;

/** A division as the form holds it: the API's record, with its identity and type blank while new. */
export type DivisionRecord = Omit<ApiDivisionRecord, 'id' | 'facilityId' | 'name' | 'type' | 'contacts' | 'acceptedPatients'> & {
  id?: number;
  facilityId?: number;
  name: string | null;
  type: DivisionType | null;
  contacts: Record<string, string | null>;
  acceptedPatients: AcceptedPatients | null;
};

export const emptyBand = (): AgeBandValue => ({ isActive: false, from: null, to: null });

export const emptyAcceptedPatients = (): AcceptedPatients => ({
  allAges: false,
  adolescent: emptyBand(),
  adult: emptyBand(),
  geriatric: emptyBand(),
});

const SOURCE_KEYS = ['sourceType', 'documentInEHR', 'noPlacement', 'outcomeRequired', 'showBillingCode', 'requestTypes'] as const;
const REFERRING_KEYS = ['referringType', 'criteria', 'acceptedPatients', 'genders', 'veteranOnly', 'extendMaximumCallbackTime', 'score'] as const;

export const sourceDefaults = () => ({
  sourceType: null,
  documentInEHR: null,
  noPlacement: false,
  outcomeRequired: false,
  showBillingCode: false,
  requestTypes: [] as string[],
});

export const referringDefaults = () => ({
  referringType: null,
  criteria: [] as string[],
  acceptedPatients: emptyAcceptedPatients(),
  genders: [] as string[],
  veteranOnly: false,
  extendMaximumCallbackTime: false,
  score: DEFAULT_DIVISION_SCORE,
});

const cleared = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, null]));

/** The type-specific fields for a (new) type: its defaults, and the other type's fields emptied. */
export function typeSpecificReset(type: DivisionType | null): Partial<DivisionRecord> {
  if (type === DivisionType.Source) return { ...sourceDefaults(), ...cleared(REFERRING_KEYS) };
  if (type === DivisionType.Referring) return { ...referringDefaults(), ...cleared(SOURCE_KEYS) };
  return { ...cleared(SOURCE_KEYS), ...cleared(REFERRING_KEYS) };
}

export function newDivision(): DivisionRecord {
  return {
    name: null,
    npi: null,
    isActive: true,
    description: null,
    type: null,
    contacts: {},
    ...(typeSpecificReset(null) as any),
  };
}

/** A division read from the API, completed with the defaults the form needs. */
export function divisionForForm(record: DivisionRecord): DivisionRecord {
  const base = { ...newDivision(), ...typeSpecificReset(record.type), ...record };
  if (record.type === DivisionType.Referring) {
    const ap = record.acceptedPatients ?? emptyAcceptedPatients();
    base.acceptedPatients = {
      allAges: !!ap.allAges,
      ...(Object.fromEntries(AGE_BANDS.map((b) => [b, { ...emptyBand(), ...(ap[b] ?? {}) }])) as Record<AgeBand, AgeBandValue>),
    };
  }
  return base;
}

const intOrNull = (v: unknown) => (v === '' || v === undefined || v === null ? null : typeof v === 'number' ? v : Number(v));

/** The payload of POST/PUT: only the schema's properties; the other type's fields null. */
export function toDivisionPayload(v: DivisionRecord) {
  const common = {
    name: v.name ?? null,
    npi: v.npi ?? null,
    isActive: v.isActive ?? true,
    description: v.description ?? null,
    type: v.type ?? null,
    contacts: contactsPayload(v.contacts, toStoredPhone),
  };
  const source = Object.fromEntries(SOURCE_KEYS.map((k) => [k, v[k] ?? null]));
  const ap = v.acceptedPatients;
  const referring = {
    ...Object.fromEntries(REFERRING_KEYS.map((k) => [k, v[k] ?? null])),
    score: intOrNull(v.score),
    acceptedPatients: ap
      ? {
          allAges: !!ap.allAges,
          ...Object.fromEntries(
            AGE_BANDS.map((b) => [b, { isActive: !!ap[b]?.isActive, from: intOrNull(ap[b]?.from), to: intOrNull(ap[b]?.to) }]),
          ),
        }
      : null,
  };
  if (v.type === DivisionType.Source) return { ...common, ...source, ...cleared(REFERRING_KEYS) };
  if (v.type === DivisionType.Referring) return { ...common, ...cleared(SOURCE_KEYS), ...referring };
  return { ...common, ...source, ...referring };
}

export const validateDivision = schemaValidator('division', toDivisionPayload);
