/**
 * What the platform sends to a hospital's EHR after a case changes (spec 01 §4 close → EHR sync,
 * §7 evaluation-document-upload and the EHR claim; 02 §2 "upload after completion"). The rules are
 * here once: the case writer queues a delivery, the EHR activities send it, the UI labels it.
 */
import type { FieldError } from '../errors';
import { objectSchema } from '../schemas/common';

/** The three things sent: the evaluation PDF, the case outcome after closing, the claim of a bill-to-EHR request. */
export const EHR_DELIVERY_KINDS = ['EvaluationDocument', 'CaseOutcome', 'Claim'] as const;
export type EhrDeliveryKind = (typeof EHR_DELIVERY_KINDS)[number];

export const EHR_DELIVERY_STATUSES = ['Pending', 'Delivered', 'Failed'] as const;
export type EhrDeliveryStatus = (typeof EHR_DELIVERY_STATUSES)[number];

/** Request types whose completed evaluation is uploaded as a document (spec 01 §4, 02 §2: assessment or reassessment). */
export const EHR_DOCUMENT_TITLES: Readonly<Record<string, string>> = {
  Assessment: 'Tele-psych Initial Assessment',
  Reassessment: 'Tele-psych Reassessment',
};

/** Title of the case-outcome document written after closing. */
export const EHR_OUTCOME_TITLE = 'Tele-psych Case Outcome';

/** The case carries both EHR ids (patient and encounter): without them nothing can be filed. */
export const hasEhrIds = (c: { patientEpicId?: string | null; encounterIdentifier?: string | null }): boolean =>
  !!c.patientEpicId?.trim() && !!c.encounterIdentifier?.trim();

/**
 * What a completed evaluation sends: its document for an assessment or reassessment, and a claim
 * when the facility bills that request type to the EHR. Nothing without EHR ids; no document when
 * the provider skipped the questionnaire (the document lives in the EHR already).
 */
export function deliveriesAfterEvaluation(o: {
  requestType: string;
  ehrIntegrated: boolean;
  hasEhrIds: boolean;
  hasEvaluation: boolean;
  formSkipped: boolean;
  billedToEhr: boolean;
}): EhrDeliveryKind[] {
  if (!o.ehrIntegrated || !o.hasEhrIds || !o.hasEvaluation) return [];
  const kinds: EhrDeliveryKind[] = [];
  if (EHR_DOCUMENT_TITLES[o.requestType] && !o.formSkipped) kinds.push('EvaluationDocument');
  if (o.billedToEhr) kinds.push('Claim');
  return kinds;
}

/** Closing (or changing the outcome of) a case of an EHR-integrated facility with EHR ids syncs the outcome. */
export const syncsOutcome = (o: { ehrIntegrated: boolean; hasEhrIds: boolean }): boolean => o.ehrIntegrated && o.hasEhrIds;

const WHAT: Record<EhrDeliveryKind, string> = {
  EvaluationDocument: 'evaluation document',
  CaseOutcome: 'case outcome',
  Claim: 'claim',
};

/** The case activity's line for a delivery event (spec 02 §2: the upload is visible in the case activity). */
export function ehrActivityNote(kind: EhrDeliveryKind, event: 'delivered' | 'retrying' | 'failed', detail?: string | null): string {
  const what = WHAT[kind];
  switch (event) {
    case 'delivered':
      return `EHR: ${what} ${kind === 'Claim' ? 'created' : 'uploaded'}${detail ? ` (${detail})` : ''}`;
    case 'retrying':
      return `EHR: ${what} not accepted yet, retrying${detail ? `: ${detail}` : ''}`;
    case 'failed':
      return `EHR: ${what} failed${detail ? `: ${detail}` : ''}`;
  }
}

/** How a delivery kind reads in a sentence (notifications, CSV). */
export const ehrDeliveryLabel = (kind: string): string => WHAT[kind as EhrDeliveryKind] ?? kind;

/** A case reference as people type it: '#000123', '000123' or '123'; null when it is none. */
export function parseCaseReference(s: string): number | null {
  const m = /^\s*#?\s*0*(\d{1,9})\s*$/.exec(s);
  const id = m ? Number(m[1]) : 0;
  return id > 0 ? id : null;
}

/** PUT /api/cases/retry (spec 01 §7 "retry of an EHR claim", 02 §7): the case reference numbers whose failed claims start again. */
export const ehrClaimRetrySchema = objectSchema('ehrClaimRetry', ['referenceNumbers'], {
  referenceNumbers: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 20 } },
});

export function ehrClaimRetryRules(d: { referenceNumbers?: string[] }): FieldError[] {
  return (d.referenceNumbers ?? []).flatMap((r, i) =>
    parseCaseReference(r) === null ? [{ field: `referenceNumbers.${i}`, key: 'invalid', message: `'${r}' is not a case reference number` }] : [],
  );
}

/** Failure message of the retry when the server gives none (spec 02 §8 "Audit retry failure"). */
export const EHR_CLAIM_RETRY_FAILED = 'Error retrying Athena claim';

/** GET /api/cases/search-patient-in-ehr: what the EHR knows of a patient, as case creation fills it in. */
export interface EhrPatientLookup {
  /** The id the user typed (Epic id or MRN) as the EHR echoes it. */
  patientId: string;
  firstName: string | null;
  lastName: string | null;
  /** yyyy-MM-dd */
  dateOfBirth: string | null;
  gender: 'Male' | 'Female' | 'Other' | null;
  phone: string | null;
  address: { streetLine: string | null; apartmentNumber: string | null; city: string | null; state: string | null; zipCode: string | null } | null;
  /** Filled only when asked (needInsurances); planPackageId is the EHR's insurance package id (athena). */
  insurances?: Array<{ payerName: string | null; planName: string | null; memberId: string | null; planPackageId: string | null }>;
}

/** Assessment-like request types (spec 01 §5, 02 §9): they may skip the questionnaire when the document lives in the EHR. */
export const ASSESSMENT_LIKE_REQUEST_TYPES: readonly string[] = [
  'Assessment',
  'Reassessment',
  'TelepsychUrgentCrisisEvaluation',
  'TelepsychPsychiatryConsult',
  'TelepsychiatryFollowUp',
];

/**
 * The provider may skip the questionnaire (no required answers) of an assessment-like request of a
 * source division that documents in the EHR: the note is written there. Diagnoses, billing codes
 * and the recommendation stay required.
 */
export const evaluationFormOptional = (o: { requestType: string; documentInEhr: boolean | null | undefined }): boolean =>
  !!o.documentInEhr && ASSESSMENT_LIKE_REQUEST_TYPES.includes(o.requestType);

/** GET /api/payers/ehr-search: one InsurancePlan of the EHR (spec 02 §1 "Athena payer search result"). */
export interface EhrPlanResult {
  insurancePackageId: string;
  insurancePlanName: string;
  affiliations: string[];
  /** One line per address; the UI shows two and the rest in a tooltip. */
  addressList: string[];
}

/** How often the case page asks the EHR again for what it knows of the case's patient and encounter. */
export const EHR_PERIODIC_REFRESH_MS = 5 * 60 * 1000;

/** A patient field on which the platform's record and the EHR disagree. */
export interface EhrDifference {
  field: 'firstName' | 'lastName' | 'dateOfBirth' | 'phone';
  label: string;
  platform: string | null;
  ehr: string | null;
}

/**
 * GET /api/cases/patient-periodic-information-in-ehr/{caseId}/{encounterId} (spec 01 §7): what the
 * EHR knows now of the case's patient and encounter, and where the platform's record differs.
 */
export interface EhrPeriodicInformation {
  patient: EhrPatientLookup;
  encounter: { id: string; status: string; start: string | null; belongsToPatient: boolean } | null;
  differences: EhrDifference[];
  checkedAt: string;
}

const DIFFERENCE_LABELS: Record<EhrDifference['field'], string> = {
  firstName: 'First name',
  lastName: 'Last name',
  dateOfBirth: 'Date of birth',
  phone: 'Phone',
};

const digits = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
const folded = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

/** Where the platform's patient and the EHR's disagree (names case-blind, phones by their digits; a blank on the EHR side is no news). */
export function ehrDifferences(
  platform: { firstName: string | null; lastName: string | null; dateOfBirth: string | null; phone: string | null },
  ehr: Pick<EhrPatientLookup, 'firstName' | 'lastName' | 'dateOfBirth' | 'phone'>,
): EhrDifference[] {
  const same: Record<EhrDifference['field'], (a: string | null, b: string | null) => boolean> = {
    firstName: (a, b) => folded(a) === folded(b),
    lastName: (a, b) => folded(a) === folded(b),
    dateOfBirth: (a, b) => (a ?? '').slice(0, 10) === (b ?? '').slice(0, 10),
    phone: (a, b) => digits(a) === digits(b),
  };
  return (Object.keys(same) as EhrDifference['field'][])
    .filter((f) => ehr[f] && !same[f](platform[f], ehr[f]))
    .map((f) => ({ field: f, label: DIFFERENCE_LABELS[f], platform: platform[f], ehr: ehr[f] }));
}
