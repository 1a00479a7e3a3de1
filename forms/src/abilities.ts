import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';
import { CLAIM_OBJECT_TYPES, canClaim, canSeeClaim } from './claims';
import { DivisionType, OrganizationType, UserType } from './enums';
import type { AbilityUser } from './user-context';

/**
 * The ability table: what each of the six roles may do (spec 03 §6, plus the division-type gates).
 * Written once; the API's guards and the UI's menus and buttons both read it.
 *
 * Subjects are domain objects (Facility, Division, User, ...) and pages that are not objects
 * (PastCases, ProviderCases, UnlockUsers, FacilitySettings, DemoTools, SmsNotifications).
 */
export type Action = 'manage' | 'list' | 'read' | 'create' | 'update' | 'delete' | 'access';
export type Subject =
  | 'all'
  | 'Facility'
  /** A facility's EHR (FHIR) connection and its signing key: ITP admin only (issue 16). */
  | 'EhrConnection'
  | 'Division'
  | 'User'
  | 'Claim'
  | 'AuditLog'
  | 'Group'
  | 'Payer'
  | 'BillingCode'
  | 'PatientTag'
  | 'EvaluationForm'
  | 'Patient'
  | 'ItpOrganization'
  | 'Case'
  | 'CaseSearchResult'
  | 'CaseStatus'
  | 'CaseInsurance'
  | 'CaseUninsured'
  | 'ProgressNote'
  | 'MedicalInformation'
  | 'FacilityMedicalInformation'
  | 'CaseNote'
  | 'HiddenCaseNote'
  | 'Vitals'
  | 'CaseTag'
  | 'Request'
  | 'OnlineMeeting'
  | 'CaseFeedback'
  | 'PatientFile'
  | 'HiddenPatientFile'
  | 'SummaryPdf'
  | 'PatientLog'
  | 'PatientHistory'
  | 'PatientMerge'
  | 'Placement'
  | 'PlacementLog'
  | 'AcceptedCase'
  | 'PastCases'
  | 'CaseReport'
  | 'PastCaseBilling'
  | 'PastCaseCounties'
  | 'ProviderCases'
  | 'ItpQueue'
  | 'ProviderQueue'
  | 'FinalizedCases'
  | 'FacilityRequests'
  | 'DashboardSearch'
  | 'GroupPanel'
  | 'ProviderPanel'
  | 'UnlockUsers'
  | 'FacilitySettings'
  | 'SmsNotifications'
  | 'NotificationBell'
  | 'DemoTools'
  | 'Profile';
export type AppAbility = MongoAbility<[Action, Subject | Record<string, unknown>]>;

/** Division-type gates of case actions: any division, all but some types, referring, source, EHR-integrated. */
export type DivisionGate =
  | { kind: 'any' }
  | { kind: 'except'; types: DivisionType[] }
  | { kind: 'referring' }
  | { kind: 'source' }
  | { kind: 'ehrIntegrated' };

export function passesDivisionGate(user: AbilityUser, gate: DivisionGate): boolean {
  switch (gate.kind) {
    case 'any':
      return true;
    case 'except':
      return !user.divisionType || !gate.types.includes(user.divisionType);
    case 'referring':
      return user.divisionType === DivisionType.Referring;
    case 'source':
      return user.divisionType === DivisionType.Source;
    case 'ehrIntegrated':
      return user.isIntegratedWithEMR;
  }
}

export function defineAbilityFor(user: AbilityUser): AppAbility {
  const { can, cannot, build } = new AbilityBuilder<AppAbility>(createMongoAbility);

  // Everyone signed in: own profile, the demo tools of a demo deployment.
  can(['read', 'update'], 'Profile', { id: user.id } as any);
  can('access', 'DemoTools');
  // The notification bell (spec 02 §2 "shown for user-group roles", 03 §6 "only group-type roles"):
  // read as every role of a user group that notifications reach — coordinators, providers,
  // facility staff (forms/src/notifications/recipients.ts) — and the group users the spec names.
  can('access', 'NotificationBell');

  switch (user.role) {
    case UserType.ItpAdmin:
      can('manage', ['Facility', 'Division', 'Group', 'Payer', 'BillingCode', 'PatientTag', 'EvaluationForm']);
      // The facility's EHR connection (base URL, client id, signing key): the facility edit page's evaluation forms tab.
      can('manage', 'EhrConnection');
      can('manage', ['Patient', 'ItpOrganization', 'User', 'AuditLog']);
      can('read', 'Case');
      can('access', ['PastCases', 'SmsNotifications', 'ItpQueue', 'DashboardSearch']);
      // Duplicate review and merge: ITP admin only (spec 02 §6, 03 §6 "patient merge").
      can('access', 'PatientMerge');
      // Billing and claim-diagnostics CSVs of past cases (02 §6 "ITP admin only").
      can('access', 'PastCaseBilling');
      break;
    case UserType.ItpUser:
      can('list', 'User');
      // The patients page is for ITP users and admins (spec 02 §6); the admin menu entry is the admin's.
      can('list', 'Patient');
      can('access', ['UnlockUsers', 'PastCases', 'SmsNotifications', 'ItpQueue', 'DashboardSearch']);
      can('read', 'Case');
      break;
    case UserType.ItpProvider:
      // The provider queue: the requests assigned to him (spec 02 §6).
      can('access', ['ProviderCases', 'PastCases', 'SmsNotifications', 'ProviderQueue', 'ProviderPanel']);
      can('read', 'Case');
      break;
    case UserType.FacilityAdmin:
      // Her own facility only: its users, its settings (MFA, SSO) and its audit log.
      can('manage', 'User', { organizationType: OrganizationType.Facility, organizationId: user.organizationId } as any);
      can('read', 'Facility', { id: user.facilityId } as any);
      can('update', 'Facility', ['isMfaEnabled'], { id: user.facilityId } as any);
      // SSO of her own facility (spec 03 §2 external-login-provider-settings tab).
      can('update', 'Facility', ['externalLoginProviderSettings'], { id: user.facilityId } as any);
      can('read', 'Division', { facilityId: user.facilityId } as any);
      // The finalized-cases table (spec 02 §2: source-type users) and the request look-ups of her case table.
      can('access', ['FacilitySettings', 'PastCases', 'FinalizedCases', 'FacilityRequests']);
      can('read', 'AuditLog', { facilityId: user.facilityId } as any);
      can('read', 'Case');
      break;
    case UserType.FacilityUser:
      // No past cases: the spec's route gate names the facility admin only (02 §6), whatever the division.
      can('read', 'Case');
      can('access', 'FacilityRequests');
      // The finalized-cases table is the source side's (spec 02 §2 "Source-type users also see").
      if (passesDivisionGate(user, { kind: 'source' })) can('access', 'FinalizedCases');
      break;
    case UserType.GroupUser:
      // Past cases of the group's facilities and counties, with their counties filter, and the group panel (02 §6).
      can('access', ['PastCases', 'PastCaseCounties', 'GroupPanel']);
      // A past case's activity report and PDF export, not its page (02 §6 "cannot open case details").
      can('read', 'CaseReport');
      cannot('read', 'Case');
      break;
  }
  defineCaseAbilities(user, can);
  // The claims API (edit locks): for whoever the claim rules let claim something, or see who holds it.
  const rolesOnly = build();
  if (CLAIM_OBJECT_TYPES.some((t) => canClaim(rolesOnly, t))) can(['create', 'update'], 'Claim');
  if (CLAIM_OBJECT_TYPES.some((t) => canSeeClaim(rolesOnly, t))) can('read', 'Claim');
  return build();
}

const ITP_STAFF: string[] = [UserType.ItpAdmin, UserType.ItpUser];
const ITP_ROLES: string[] = [UserType.ItpAdmin, UserType.ItpUser, UserType.ItpProvider];
const FACILITY_ROLES: string[] = [UserType.FacilityAdmin, UserType.FacilityUser];

/**
 * The case domain (spec 01 §6). Which case a user may open is decided per row by the API's case
 * scope (own facility / division, granted referring access, assigned provider); these rules say
 * which kinds of action a role has at all.
 */
function defineCaseAbilities(user: AbilityUser, can: AbilityBuilder<AppAbility>['can']) {
  const role: string = user.role;
  const itpStaff = ITP_STAFF.includes(role);
  const itp = ITP_ROLES.includes(role);
  const facility = FACILITY_ROLES.includes(role);
  // Referring-division users receive patients: they read the case and log calls, little else.
  const sourceSide = facility && passesDivisionGate(user, { kind: 'except', types: [DivisionType.Referring] });

  if (itpStaff || sourceSide) can('create', 'Case');
  if (itpStaff) can('read', 'CaseSearchResult');
  if (itpStaff || sourceSide) can('update', 'Case');
  if (itpStaff) can('update', 'CaseStatus');
  if (itpStaff || sourceSide) can(['read', 'update'], 'CaseInsurance');
  if (itpStaff || sourceSide) can('update', 'CaseUninsured');
  if (itp) can(['read', 'create'], 'ProgressNote');
  if (itp) can(['read', 'update'], 'MedicalInformation');
  // The facility case page's read-only subset of medical information (spec 01 §2).
  if (facility) can('read', 'FacilityMedicalInformation');
  // The activity report and PDF export of a case it may open.
  if (itp || facility) can('read', 'CaseReport');
  if (itp || facility) can('read', 'CaseNote');
  if (itp || sourceSide) can('create', 'CaseNote');
  if (itp || sourceSide) can(['update', 'delete'], 'CaseNote');
  if (itpStaff) can(['read', 'update'], 'HiddenCaseNote');
  if (itp || facility) can('read', 'Vitals');
  if (itp || sourceSide) can('create', 'Vitals');
  if (itp) can('update', 'CaseTag');
  if (itp || facility) can('read', 'Request');
  if (itpStaff || sourceSide) can(['create', 'update'], 'Request');
  // Video meeting of a request (spec 01 §4, 02 §2): everyone who sees the request sees its meeting;
  // the provider (of that request, checked per row) and partner staff create or recreate it; the
  // provider joins as the provider, the source facility's staff join for the patient ('update').
  if (itp || facility) can('read', 'OnlineMeeting');
  if (itp) can('create', 'OnlineMeeting');
  if (role === UserType.ItpProvider || sourceSide) can('update', 'OnlineMeeting');
  if (itpStaff || sourceSide) can('create', 'CaseFeedback');
  if (itp || facility) can('read', 'PatientFile');
  if (itpStaff || sourceSide) can('create', 'PatientFile');
  // Facility staff edit and delete the files they submitted (checked per file by patientFileActions).
  if (sourceSide) can(['update', 'delete'], 'PatientFile');
  if (itpStaff) can(['read', 'update'], 'HiddenPatientFile');
  if (itp || role === UserType.FacilityAdmin) can('access', 'SummaryPdf');
  if (itp || sourceSide) can('read', 'PatientLog');
  if (itp) can('access', 'PatientHistory');
  // Placement (spec 02 §6): coordinators work the placements and the call log; the case's placement
  // log and its exports are also for the source side's facility admins and users (spec 02 §2). A
  // referring division receives the patient: the calls made to other facilities are not its to read.
  if (itpStaff) can('manage', 'Placement');
  if (itpStaff || sourceSide) can('read', 'PlacementLog');
  // Referring facilities (spec 02 §2 dashboard): users of a referring division and facility admins list
  // the cases their division(s) accepted and confirm the patient's arrival (which closes the case).
  if ((role === UserType.FacilityUser && user.divisionType === DivisionType.Referring) || role === UserType.FacilityAdmin)
    can(['read', 'update'], 'AcceptedCase');
}
