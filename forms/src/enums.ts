/** Enumerations of spec 03 §3, shared by the API, the worker and the UI. */

export const OrganizationType = {
  ITP: 'IntegratedTelehealthPartners',
  Facility: 'Facility',
  Group: 'Group',
} as const;
export type OrganizationType = (typeof OrganizationType)[keyof typeof OrganizationType];
export const ORGANIZATION_TYPES = Object.values(OrganizationType);

export const UserType = {
  ItpAdmin: 'IntegratedTelehealthPartners_Admin',
  ItpUser: 'IntegratedTelehealthPartners_User',
  ItpProvider: 'IntegratedTelehealthPartners_Provider',
  FacilityAdmin: 'Facility_Admin',
  FacilityUser: 'Facility_User',
  GroupUser: 'Group_User',
} as const;
export type UserType = (typeof UserType)[keyof typeof UserType];
export const USER_TYPES = Object.values(UserType);

/** Each organization type admits only its own user types (spec 03 §3). */
export const USER_TYPES_BY_ORGANIZATION_TYPE: Record<OrganizationType, UserType[]> = {
  [OrganizationType.ITP]: [UserType.ItpAdmin, UserType.ItpUser, UserType.ItpProvider],
  [OrganizationType.Facility]: [UserType.FacilityAdmin, UserType.FacilityUser],
  [OrganizationType.Group]: [UserType.GroupUser],
};

export const USER_TYPE_LABELS: Record<UserType, string> = {
  [UserType.ItpAdmin]: 'ITP admin',
  [UserType.ItpUser]: 'ITP user',
  [UserType.ItpProvider]: 'Provider',
  [UserType.FacilityAdmin]: 'Facility admin',
  [UserType.FacilityUser]: 'Facility user',
  [UserType.GroupUser]: 'Group user',
};

export const DivisionType = { Source: 'Source', Referring: 'Referring' } as const;
export type DivisionType = (typeof DivisionType)[keyof typeof DivisionType];
export const DIVISION_TYPES = Object.values(DivisionType);
/** The facility-list filter adds a "no division specified" option. */
export const NO_DIVISION_SPECIFIED = 'NoDivisionSpecified';

export const SOURCE_TYPES = ['ErCrisis', 'MedFloor', 'PsychUnit'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const REFERRING_TYPES = [
  'MentalHealthInpatient',
  'SubstanceAbuseResidential',
  'DetoxUnit',
  'MedPsychUnit',
  'CrisisCenter',
  'Outpatient',
  'IntensiveOutpatient',
  'PartialHospitalization',
] as const;
export type ReferringType = (typeof REFERRING_TYPES)[number];

export const CRITERIA = ['MentalHealth', 'MentalHealthTherapy', 'MentalHealthPsychiatry', 'SubstanceAbuse'] as const;
export type Criteria = (typeof CRITERIA)[number];

/** Criteria allowed per referring type; types not listed allow none (spec 03 §3). */
export const CRITERIA_BY_REFERRING_TYPE: Partial<Record<ReferringType, Criteria[]>> = {
  Outpatient: ['MentalHealthTherapy', 'MentalHealthPsychiatry', 'SubstanceAbuse'],
  IntensiveOutpatient: ['MentalHealth', 'SubstanceAbuse'],
};
export const criteriaAllowedFor = (t: ReferringType | null | undefined): Criteria[] =>
  (t && CRITERIA_BY_REFERRING_TYPE[t]) || [];

export const DIVISION_GENDERS = ['Female', 'Male'] as const;
export const AGE_BANDS = ['adolescent', 'adult', 'geriatric'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

export const REQUEST_TYPES = [
  'PhoneConsultation',
  'Assessment',
  'Reassessment',
  'FileReview',
  'PlacementOnly',
  'TelepsychUrgentCrisisEvaluation',
  'TelepsychPsychiatryConsult',
  'TelepsychiatryFollowUp',
  'ASAMAssessment',
] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const MFA_METHODS = ['Sms', 'Email'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

export const STATE_RESTRICTION_TYPES = [
  'NoRestrictions',
  'OnlyPopulateFacilitiesWithinTravelTime',
  'DoNotPopulateFacilities',
] as const;

/** Human labels for enumeration values ("MentalHealthInpatient" → "Mental Health Inpatient"). */
export const enumLabel = (value: string): string =>
  value
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
