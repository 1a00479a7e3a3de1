/** Enumerations of the case domain (spec 01 §3, §4), shared by the API, the worker and the UI. */
import { REFERRING_TYPES } from '../enums';

export const GENDERS = ['Female', 'Male', 'Transgender_Female', 'Transgender_Male'] as const;
export type Gender = (typeof GENDERS)[number];

/**
 * Age ranges of spec 01 §3 / 03 §3 for filtering patients: Child 5-12, Adolescent 13-17, Adult 18
 * and up, Geriatric 55 and up (Adult includes the geriatric ages, as the spec says "and up"). Ages
 * in whole years; `max` null = no upper bound. Read through ageRangeBirthDates (forms/src/patients).
 */
export const AGE_RANGES = [
  { name: 'Child', min: 5, max: 12 },
  { name: 'Adolescent', min: 13, max: 17 },
  { name: 'Adult', min: 18, max: null },
  { name: 'Geriatric', min: 55, max: null },
] as const;
export type AgeRangeName = (typeof AGE_RANGES)[number]['name'];
export const AGE_RANGE_NAMES = AGE_RANGES.map((r) => r.name) as AgeRangeName[];

export const NOTIFICATION_SENDING_METHODS = ['SMS', 'PhoneCall'] as const;
export type NotificationSendingMethod = (typeof NOTIFICATION_SENDING_METHODS)[number];

// ---------------------------------------------------------------------------------------------
// Case statuses (spec 01 §4): every status belongs to exactly one group.
// ---------------------------------------------------------------------------------------------

export const CASE_STATUS_GROUPS = {
  PendingAssignment: ['PendingAssignment_DocumentationReview'],
  OnHold: [
    'OnHold_MissingDocumentation',
    'OnHold_WaitingForFacility',
    'OnHold_WaitingForPatient',
    'OnHold_WaitingForAssignment',
    'OnHold_Other',
    'OnHold_DocumentationReview',
  ],
  RequestSentToProvider: ['RequestSentToProvider_ProviderNotified', 'RequestSentToProvider_ProviderAcknowledged'],
  ProviderWorkingRequest: [
    'ProviderWorkingRequest_DocumentationReview',
    'ProviderWorkingRequest_WaitingForFacilityToJoin',
    'ProviderWorkingRequest_AssessmentInProgress',
    'ProviderWorkingRequest_ReassessmentInProgress',
    'ProviderWorkingRequest_FileReviewInProgress',
    'ProviderWorkingRequest_PhoneConsultationInProgress',
    'ProviderWorkingRequest_TelepsychUrgentCrisisEvaluationInProgress',
    'ProviderWorkingRequest_TelepsychPsychiatryConsultInProgress',
    'ProviderWorkingRequest_TelepsychiatryFollowUpInProgress',
  ],
  RecommendationReview: ['RecommendationReview_WaitingOnDecision'],
  LocatingServices: ['LocatingServices_ContactingServiceOrganization'],
  ServicesLocated: ['ServicesLocated_WaitingForConfirmation'],
  Closed: ['Closed'],
} as const;

export type CaseStatusGroup = keyof typeof CASE_STATUS_GROUPS;
export type CaseStatus = (typeof CASE_STATUS_GROUPS)[CaseStatusGroup][number];
export const CASE_STATUS_GROUP_NAMES = Object.keys(CASE_STATUS_GROUPS) as CaseStatusGroup[];
export const CASE_STATUSES = CASE_STATUS_GROUP_NAMES.flatMap((g) => CASE_STATUS_GROUPS[g]) as CaseStatus[];

const GROUP_OF = new Map<string, CaseStatusGroup>(
  CASE_STATUS_GROUP_NAMES.flatMap((g) => CASE_STATUS_GROUPS[g].map((s) => [s, g] as [string, CaseStatusGroup])),
);
export const caseStatusGroupOf = (status: string): CaseStatusGroup | undefined => GROUP_OF.get(status);
export const isCaseStatus = (value: unknown): value is CaseStatus => typeof value === 'string' && GROUP_OF.has(value);

export const CaseStatus = {
  PendingAssignment: 'PendingAssignment_DocumentationReview',
  OnHoldDocumentationReview: 'OnHold_DocumentationReview',
  ProviderNotified: 'RequestSentToProvider_ProviderNotified',
  ProviderAcknowledged: 'RequestSentToProvider_ProviderAcknowledged',
  ProviderDocumentationReview: 'ProviderWorkingRequest_DocumentationReview',
  WaitingOnDecision: 'RecommendationReview_WaitingOnDecision',
  Contacting: 'LocatingServices_ContactingServiceOrganization',
  WaitingForConfirmation: 'ServicesLocated_WaitingForConfirmation',
  Closed: 'Closed',
} as const satisfies Record<string, CaseStatus>;

// ---------------------------------------------------------------------------------------------
// Requests (spec 01 §3 Request)
// ---------------------------------------------------------------------------------------------

export const REQUEST_STATUSES = ['New', 'Pending', 'InProgress', 'Canceled', 'Completed', 'OnHold'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const ACTIVE_REQUEST_STATUSES: readonly RequestStatus[] = ['New', 'Pending', 'InProgress', 'OnHold'];
export const isActiveRequestStatus = (s: string): boolean => (ACTIVE_REQUEST_STATUSES as readonly string[]).includes(s);

// ---------------------------------------------------------------------------------------------
// Recommendation (spec 01 §3 "Main recommendation and allowed criteria")
// ---------------------------------------------------------------------------------------------

/** The levels of care a provider recommends: a referring type, or Defer. */
export const MAIN_RECOMMENDATIONS = [...REFERRING_TYPES, 'DeferRecommendationsAtThisTime'] as const;
export type MainRecommendation = (typeof MAIN_RECOMMENDATIONS)[number];
export const DEFER_RECOMMENDATION: MainRecommendation = 'DeferRecommendationsAtThisTime';

export const RECOMMENDATION_CRITERIA = [
  'SingleOccupancy',
  'HighAcuity',
  'DualDiagnosis',
  '{hash}',
  'CrisisStabilization',
  'SubAcute',
  'MentalHealth',
  'MentalHealthTherapy',
  'MentalHealthPsychiatry',
  'SubstanceAbuse',
] as const;
export type RecommendationCriterion = (typeof RECOMMENDATION_CRITERIA)[number];

/** Criteria allowed per main recommendation; a recommendation not listed allows none. */
export const CRITERIA_BY_RECOMMENDATION: Partial<Record<MainRecommendation, readonly RecommendationCriterion[]>> = {
  MentalHealthInpatient: ['SingleOccupancy', 'HighAcuity', 'DualDiagnosis'],
  CrisisCenter: ['{hash}', 'CrisisStabilization', 'SubAcute'],
  Outpatient: ['MentalHealthTherapy', 'MentalHealthPsychiatry', 'SubstanceAbuse'],
  IntensiveOutpatient: ['MentalHealth', 'SubstanceAbuse'],
};
export const criteriaForRecommendation = (r: string | null | undefined): readonly RecommendationCriterion[] =>
  (r && CRITERIA_BY_RECOMMENDATION[r as MainRecommendation]) || [];
/** Highlighted wherever criteria are shown. */
export const HIGH_RISK_CRITERIA: readonly RecommendationCriterion[] = [
  'SingleOccupancy',
  'HighAcuity',
  'DualDiagnosis',
  '{hash}',
  'CrisisStabilization',
  'SubAcute',
];
/** A recommendation that needs a note (spec 01 §3). */
export const recommendationNeedsNote = (r: string | null | undefined): boolean => r === DEFER_RECOMMENDATION;

// ---------------------------------------------------------------------------------------------
// Outcomes (spec 01 §3 "Case outcomes")
// ---------------------------------------------------------------------------------------------

export const CASE_OUTCOMES = [
  'Transferred_MentalHealthInpatient',
  'Transferred_SubstanceAbuseResidential',
  'Transferred_MedicalUnit',
  'Transferred_DetoxUnit',
  'Transferred_MedPsychCenter',
  'Transferred_CrisisCenter',
  'LeftAMA',
  'CaseTransferredBackToEmergency',
  'NoServiceProvided',
  'Discharged_PartialHospitalization',
  'Discharged_MentalHealthOutpatient_Home',
  'Discharged_MentalHealthOutpatient_ReturnedToJail',
  'Discharged_MentalHealthOutpatient_Facility',
  'Discharged_IntensiveOutpatient_MentalHealth',
  'Discharged_IntensiveOutpatient_SubstanceAbuse',
  'Discharged_SubstanceAbuseOutpatient_Home',
  'Discharged_SubstanceAbuseOutpatient_ReturnedToJail',
  'Discharged_SubstanceAbuseOutpatient_Facility',
  // The spec names "Other variants" without listing them: one per destination kind.
  'Transferred_Other',
  'Discharged_Other',
] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

/** Outcomes that name the receiving facility (the eleven of spec 01 §3). */
export const OUTCOMES_NEEDING_FACILITY: readonly CaseOutcome[] = [
  'Transferred_MentalHealthInpatient',
  'Transferred_SubstanceAbuseResidential',
  'Transferred_MedicalUnit',
  'Transferred_DetoxUnit',
  'Transferred_MedPsychCenter',
  'Transferred_CrisisCenter',
  'Discharged_MentalHealthOutpatient_Facility',
  'Discharged_SubstanceAbuseOutpatient_Facility',
  'Discharged_IntensiveOutpatient_MentalHealth',
  'Discharged_IntensiveOutpatient_SubstanceAbuse',
  'Discharged_PartialHospitalization',
];
export const outcomeNeedsFacility = (o: string | null | undefined): boolean =>
  !!o && (OUTCOMES_NEEDING_FACILITY as readonly string[]).includes(o);
/** "Other" outcomes choose no facility and require a note. */
export const isOtherOutcome = (o: string | null | undefined): boolean => !!o && /(^|_)Other$/.test(o);

// ---------------------------------------------------------------------------------------------
// Medical information (spec 01 §3)
// ---------------------------------------------------------------------------------------------

export const HALLUCINATION_TYPES = ['Auditory', 'Visual', 'BothAHOrVH'] as const;
export const VIOLENT_BEHAVIORS = ['Past', 'Present', 'PastAndPresent', 'None'] as const;
export const LIVING_SITUATIONS = ['Home', 'GroupHome', 'NursingFacility', 'LongTermPsychiatricFacility', 'Homeless'] as const;
export const LEGAL_STATUSES = [
  'Voluntary',
  'InvoluntaryPsychiatricHold',
  'InvoluntaryMentalHealthCommitment',
  'InvoluntarySubstanceAbuseCommitment',
  'InvoluntaryOutpatientCommitment',
  'PowerOfAttorney',
  'LegalGuardian',
  'Under18ParentalConsent',
  'DualCommittal',
] as const;
export type LegalStatus = (typeof LEGAL_STATUSES)[number];
export const INVOLUNTARY_LEGAL_STATUSES: readonly LegalStatus[] = [
  'InvoluntaryPsychiatricHold',
  'InvoluntaryMentalHealthCommitment',
  'InvoluntarySubstanceAbuseCommitment',
  'InvoluntaryOutpatientCommitment',
];
export const isInvoluntary = (s: string | null | undefined): boolean =>
  !!s && (INVOLUNTARY_LEGAL_STATUSES as readonly string[]).includes(s);
export const DRUGS = ['Methamphetamin', 'Amphetamine', 'Opiates', 'PCP', 'Cocaine', 'LSD', 'Barbiturates', 'Benzodiazepines', 'THC'] as const;
export const DRUG_USE_CASES = ['Prescribed', 'Unprescribed', 'Unknown'] as const;

// ---------------------------------------------------------------------------------------------
// Insurance (spec 01 §3)
// ---------------------------------------------------------------------------------------------

export const RELATIONS_TO_INSURED = ['Child', 'Husband', 'Self', 'Spouse'] as const;
export const RESPONSIBLE_PARTY_ROLES = [
  'CareGiver', 'Daughter', 'Father', 'Grandparent', 'Guardian', 'Mother', 'Other', 'Self', 'Sister', 'Son', 'Spouse', 'Stepfather', 'Stepmother',
] as const;
export const INSURANCE_STATUSES = ['Unverified', 'Verified', 'NotProvided', 'Uninsured'] as const;
export const INSURANCE_ORDER = ['primary', 'secondary', 'tertiary'] as const;
export const MAX_INSURANCES = 3;

// ---------------------------------------------------------------------------------------------
// Notifications (spec 02 §3)
// ---------------------------------------------------------------------------------------------

// The list and the recipient rules live in forms/src/notifications/.
export { NOTIFICATION_TYPES, type NotificationType } from '../notifications/types';
