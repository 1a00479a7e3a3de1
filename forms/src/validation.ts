import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AGE_BANDS, DivisionType, criteriaAllowedFor, type ReferringType } from './enums';
import type { FieldError } from './errors';
import { REQUIRED_MESSAGE } from './constants';
import { isAcceptedPhone, toStoredPhone } from './phone';
import { billingCodeListFilterSchema, billingCodeSchema, groupOrganizationListFilterSchema, groupOrganizationRules, groupOrganizationSchema, patientTagListFilterSchema, patientTagSchema, payerInsuranceQueryRules, payerInsuranceQuerySchema, payerListFilterSchema, payerSchema } from './schemas/reference';
import { claimActualQuerySchema, claimCreateSchema, claimExtendSchema } from './schemas/claims';
import { ehrClaimRetryRules, ehrClaimRetrySchema } from './cases/ehr';
import { changePasswordSchema } from './schemas/auth';
import { externalLoginSettingsRules, externalLoginSettingsSchema, ipWhiteListSettingsSchema, itpOrganizationSchema } from './schemas/organization';
import { ipWhiteListSettingsRules } from './schemas/ip-list';
import { auditLogFilterRules, auditLogFilterSchema } from './schemas/audit-log';
import * as caseSchemas from './cases/schemas';
import { requestQueueFilterSchema } from './cases/queues';
import { latestToday, pastCaseFilterRules, pastCaseFilterSchema } from './cases/past-cases';
import { caseSearchFilterSchema, facilityRequestsQuerySchema, finalizedFilterSchema } from './cases/dashboards';
import * as placementSchemas from './placement/schemas';
import * as evaluationSchemas from './evaluation/schemas';
import * as patientSchemas from './patients';
import { profileSchema, setPasswordRules, setPasswordSchema, smsNotificationsStartRules, smsNotificationsStartSchema, userIdsSchema, userListFilterSchema, userRules, userSchema } from './schemas/users';
import {
  divisionListFilterSchema,
  divisionSchema,
  facilityListFilterSchema,
  facilityMfaSchema,
  facilitySchema,
} from './schemas/facility';
import {
  credentialedProviderListFilterSchema,
  credentialedProviderSchema,
  facilityEhrConnectionSchema,
  facilityEvaluationFormSchema,
  populateOutOfStateFacilitiesSchema,
  preferredFacilityListFilterSchema,
  preferredFacilitySchema,
  stateRestrictionFormRules,
  stateRestrictionFormSchema,
  stateRestrictionRules,
  stateRestrictionSchema,
} from './schemas/facility-tabs';


/** Rules a JSON Schema cannot say clearly; run after the schema passes its own checks. */
type Rules = (data: any) => FieldError[];

const required = (field: string): FieldError => ({ field, key: 'required', message: REQUIRED_MESSAGE });
const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);

/** Division rules of spec 03 §5 that depend on the division type. */
export const divisionRules: Rules = (d) => {
  const errors: FieldError[] = [];
  if (d.type === DivisionType.Source) {
    if (isEmpty(d.sourceType)) errors.push(required('sourceType'));
    if (isEmpty(d.requestTypes)) errors.push(required('requestTypes'));
    if (isEmpty(d.contacts?.phone1)) errors.push(required('contacts.phone1'));
  }
  if (d.type === DivisionType.Referring) {
    if (isEmpty(d.contacts?.phone1)) errors.push(required('contacts.phone1'));
    if (isEmpty(d.contacts?.fax1)) errors.push(required('contacts.fax1'));
    if (isEmpty(d.referringType)) errors.push(required('referringType'));
    const allowed = criteriaAllowedFor(d.referringType as ReferringType);
    if (allowed.length > 0 && isEmpty(d.criteria)) errors.push(required('criteria'));
    for (const c of d.criteria ?? [])
      if (!allowed.includes(c))
        errors.push({ field: 'criteria', key: 'enum', message: `Criteria ${c} is not allowed for this referring type` });
    if (isEmpty(d.genders)) errors.push(required('genders'));
    if (d.score === null || d.score === undefined) errors.push(required('score'));
    if (typeof d.veteranOnly !== 'boolean') errors.push(required('veteranOnly'));
    if (typeof d.extendMaximumCallbackTime !== 'boolean') errors.push(required('extendMaximumCallbackTime'));
    if (!d.acceptedPatients) errors.push(required('acceptedPatients'));
    else errors.push(...acceptedPatientsRules(d.acceptedPatients, 'acceptedPatients'));
  }
  return errors;
};

/** At least one option; every active band needs from and to, with to at least from. */
export function acceptedPatientsRules(ap: any, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const active = AGE_BANDS.filter((b) => ap[b]?.isActive);
  if (!ap.allAges && active.length === 0)
    errors.push({ field: path, key: 'atLeastOneOptionIsRequired', message: 'At least one option is required' });
  if (!ap.allAges)
    for (const b of active) {
      const { from, to } = ap[b];
      if (from === null || from === undefined) errors.push(required(`${path}.${b}.from`));
      if (to === null || to === undefined) errors.push(required(`${path}.${b}.to`));
      if (typeof from === 'number' && typeof to === 'number' && to < from)
        errors.push({ field: `${path}.${b}.to`, key: 'toBeforeFrom', message: 'To must be at least From' });
    }
  return errors;
}

export const changePasswordRules: Rules = (d) => {
  const errors: FieldError[] = [];
  if (d.newPassword && d.newPassword === d.currentPassword)
    errors.push({ field: 'newPassword', key: 'mustDiffer', message: 'New password must differ from the current one' });
  if (d.newPassword && d.confirmPassword !== d.newPassword)
    errors.push({ field: 'confirmPassword', key: 'passwordsDoNotMatch', message: 'Passwords do not match' });
  return errors;
};

/** Every request and form schema, by name. The API's pipe and the UI's forms look them up here. */
export const SCHEMAS = {
  facility: { schema: facilitySchema },
  facilityMfa: { schema: facilityMfaSchema },
  division: { schema: divisionSchema, rules: divisionRules },
  facilityListFilter: { schema: facilityListFilterSchema },
  divisionListFilter: { schema: divisionListFilterSchema },
  claimCreate: { schema: claimCreateSchema },
  claimExtend: { schema: claimExtendSchema },
  claimActualQuery: { schema: claimActualQuerySchema },
  changePassword: { schema: changePasswordSchema, rules: changePasswordRules },
  auditLogFilter: { schema: auditLogFilterSchema, rules: (d: any) => auditLogFilterRules(d) },
  user: { schema: userSchema, rules: userRules },
  profile: { schema: profileSchema },
  userListFilter: { schema: userListFilterSchema },
  userIds: { schema: userIdsSchema },
  smsNotificationsStart: { schema: smsNotificationsStartSchema, rules: (d: any) => smsNotificationsStartRules(d) },
  setPassword: { schema: setPasswordSchema, rules: setPasswordRules },
  groupOrganization: { schema: groupOrganizationSchema, rules: groupOrganizationRules },
  groupOrganizationListFilter: { schema: groupOrganizationListFilterSchema },
  payer: { schema: payerSchema },
  payerListFilter: { schema: payerListFilterSchema },
  payerInsuranceQuery: { schema: payerInsuranceQuerySchema, rules: payerInsuranceQueryRules },
  ehrClaimRetry: { schema: ehrClaimRetrySchema, rules: ehrClaimRetryRules },
  billingCode: { schema: billingCodeSchema },
  billingCodeListFilter: { schema: billingCodeListFilterSchema },
  patientTag: { schema: patientTagSchema },
  patientTagListFilter: { schema: patientTagListFilterSchema },
  itpOrganization: { schema: itpOrganizationSchema },
  ipWhiteListSettings: { schema: ipWhiteListSettingsSchema, rules: ipWhiteListSettingsRules },
  externalLoginSettings: { schema: externalLoginSettingsSchema, rules: externalLoginSettingsRules },
  credentialedProvider: { schema: credentialedProviderSchema, rules: (d: any) => acceptedPatientsRules(d.acceptedPatients, 'acceptedPatients') },
  credentialedProviderListFilter: { schema: credentialedProviderListFilterSchema },
  preferredFacility: { schema: preferredFacilitySchema },
  preferredFacilityListFilter: { schema: preferredFacilityListFilterSchema },
  facilityEvaluationForm: { schema: facilityEvaluationFormSchema },
  facilityEhrConnection: { schema: facilityEhrConnectionSchema },
  populateOutOfStateFacilities: { schema: populateOutOfStateFacilitiesSchema },
  stateRestriction: { schema: stateRestrictionSchema, rules: stateRestrictionRules },
  stateRestrictionForm: { schema: stateRestrictionFormSchema, rules: stateRestrictionFormRules },
  // Case domain (spec 01 §5): forms/src/cases/schemas.ts
  casePatientSearch: { schema: caseSchemas.casePatientSearchSchema, rules: caseSchemas.casePatientSearchRules },
  patient: { schema: caseSchemas.patientSchema, rules: (d: any) => caseSchemas.patientRules(d) },
  insurance: { schema: caseSchemas.insuranceSchema, rules: (d: any) => caseSchemas.insuranceRules(d) },
  insuranceOrder: { schema: caseSchemas.insuranceOrderSchema },
  insuranceUninsured: { schema: caseSchemas.insuranceUninsuredSchema },
  insuranceList: { schema: caseSchemas.insuranceListSchema, rules: caseSchemas.insuranceListRules },
  patientSearch: { schema: caseSchemas.patientSearchSchema, rules: caseSchemas.patientSearchRules },
  caseCreate: { schema: caseSchemas.caseCreateSchema, rules: caseSchemas.caseCreateRules },
  caseSourceDetails: { schema: caseSchemas.caseSourceDetailsSchema },
  caseStatusChange: { schema: caseSchemas.caseStatusChangeSchema, rules: caseSchemas.caseStatusChangeRules },
  caseClose: { schema: caseSchemas.caseCloseSchema, rules: caseSchemas.caseCloseRules },
  caseChangeOutcome: { schema: caseSchemas.caseChangeOutcomeSchema, rules: caseSchemas.caseChangeOutcomeRules },
  caseRemoveFromAccepted: { schema: caseSchemas.caseRemoveFromAcceptedSchema },
  caseFeedback: { schema: caseSchemas.caseFeedbackSchema },
  caseIncludeOutOfState: { schema: caseSchemas.caseIncludeOutOfStateSchema },
  caseTags: { schema: caseSchemas.caseTagsSchema },
  requestCreate: { schema: caseSchemas.requestCreateSchema },
  requestUpdate: { schema: caseSchemas.requestUpdateSchema },
  requestReason: { schema: caseSchemas.requestReasonSchema },
  evaluationForm: { schema: evaluationSchemas.evaluationFormSchema, rules: (d: any) => evaluationSchemas.evaluationFormRules(d) },
  evaluationFormListFilter: { schema: evaluationSchemas.evaluationFormListFilterSchema },
  evaluationSave: { schema: evaluationSchemas.evaluationSaveSchema },
  evaluationComplete: { schema: evaluationSchemas.evaluationCompleteSchema },
  onlineMeetingCreate: { schema: evaluationSchemas.onlineMeetingCreateSchema },
  vitals: { schema: caseSchemas.vitalsSchema, rules: caseSchemas.vitalsRules },
  progressNote: { schema: caseSchemas.progressNoteSchema, rules: caseSchemas.progressNoteRules },
  caseNote: { schema: caseSchemas.caseNoteSchema },
  caseNoteHidden: { schema: caseSchemas.caseNoteHiddenSchema },
  medicalInformation: { schema: caseSchemas.medicalInformationSchema, rules: caseSchemas.medicalInformationRules },
  patientFileMeta: { schema: caseSchemas.patientFileMetaSchema },
  casePdfExport: { schema: caseSchemas.casePdfExportSchema, rules: caseSchemas.casePdfExportRules },
  caseListFilter: { schema: caseSchemas.caseListFilterSchema },
  requestQueueFilter: { schema: requestQueueFilterSchema },
  pastCaseFilter: { schema: pastCaseFilterSchema, rules: (d: any) => pastCaseFilterRules(d, latestToday()) },
  caseSearchFilter: { schema: caseSearchFilterSchema },
  finalizedFilter: { schema: finalizedFilterSchema },
  facilityRequestsQuery: { schema: facilityRequestsQuerySchema },
  // Patient directory and merge (spec 02 §5): forms/src/patients
  patientListFilter: { schema: patientSchemas.patientListFilterSchema },
  mergeRecordsQuery: { schema: patientSchemas.mergeRecordsQuerySchema, rules: (d: any) => caseSchemas.dayRules(d.dateOfBirth, 'dateOfBirth') },
  patientIds: { schema: patientSchemas.patientIdsSchema },
  // Placement (spec 02 §5): forms/src/placement/schemas.ts
  callLogSubmit: { schema: placementSchemas.callLogSubmitSchema, rules: placementSchemas.callLogSubmitRules },
  callLogDraft: { schema: placementSchemas.callLogDraftSchema },
  placementGenerate: { schema: placementSchemas.placementGenerateSchema },
  placementTaskCreate: { schema: placementSchemas.placementTaskCreateSchema },
  divisionClaim: { schema: placementSchemas.divisionClaimSchema },
  callsCardFilter: { schema: placementSchemas.callsCardFilterSchema },
  placementLogFilter: { schema: placementSchemas.placementLogFilterSchema, rules: placementSchemas.placementLogFilterRules },
} satisfies Record<string, { schema: object; rules?: Rules }>;
export type SchemaName = keyof typeof SCHEMAS;

const MESSAGES: Record<string, (e: ErrorObject) => string> = {
  required: () => REQUIRED_MESSAGE,
  minItems: () => REQUIRED_MESSAGE,
  maxLength: (e) => `Must be at most ${(e.params as any).limit} characters`,
  minLength: (e) => `Must be at least ${(e.params as any).limit} characters`,
  pattern: () => 'Invalid format',
  enum: () => 'Invalid value',
  type: (e) => `Must be ${(e.params as any).type}`,
  minimum: (e) => `Must be at least ${(e.params as any).limit}`,
  maximum: (e) => `Must be at most ${(e.params as any).limit}`,
  additionalProperties: (e) => `Unknown field ${(e.params as any).additionalProperty}`,
  exclusiveMinimum: (e) => `Must be greater than ${(e.params as any).limit}`,
  format: (e) =>
    (e.params as any).format === 'date' || (e.params as any).format === 'date-time' ? 'Invalid date' : (e.params as any).format === 'phone' ? 'Invalid phone number' : 'Invalid format',
  uniqueItems: () => 'Values must be unique',
  maxItems: (e) => `At most ${(e.params as any).limit} items`,
};

function toFieldError(e: ErrorObject): FieldError {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  let field = base;
  if (e.keyword === 'required') field = [base, (e.params as any).missingProperty].filter(Boolean).join('.');
  if (e.keyword === 'additionalProperties') field = [base, (e.params as any).additionalProperty].filter(Boolean).join('.');
  // A blank required field arrives as null (normalizeInput), which is "required", not a type problem.
  const isBlank = e.keyword === 'minItems' || (e.keyword === 'type' && e.data === null);
  if (isBlank) return { field, key: 'required', message: REQUIRED_MESSAGE };
  // A percentage sent as a fraction (schemas' percentAsFraction): the limit said in percent.
  if ((e.parentSchema as { 'x-percent'?: boolean } | undefined)?.['x-percent'] && (e.keyword === 'maximum' || e.keyword === 'exclusiveMinimum'))
    return { field, key: e.keyword, message: e.keyword === 'maximum' ? `Must be at most ${Math.round((e.params as any).limit * 100)} %` : 'Must be positive' };
  // A value outside the field's choices, where the spec names its own message key (schema 'x-errorKey').
  const own = e.parentSchema as { 'x-errorKey'?: string; 'x-errorMessage'?: string } | undefined;
  if (own?.['x-errorKey'] && (e.keyword === 'enum' || e.keyword === 'type'))
    return { field, key: own['x-errorKey'], message: own['x-errorMessage'] ?? 'Invalid value' };
  return { field, key: e.keyword, message: (MESSAGES[e.keyword] ?? (() => e.message ?? 'Invalid value'))(e) };
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function getValidator(name: SchemaName): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false, $data: true, verbose: true });
    addFormats(ajv);
    // Read at each check: the policy (international numbers allowed or not) is an application setting.
    ajv.addFormat('phone', { type: 'string', validate: (v: string) => isAcceptedPhone(v) });
  }
  let v = compiled.get(name);
  if (!v) {
    v = ajv.compile(SCHEMAS[name].schema);
    compiled.set(name, v);
  }
  return v;
}

/**
 * Validates already-normalised data (see normalizeInput) against a named schema, then its rules.
 * Applies schema defaults to `data` in place. Returns the field errors, empty when valid.
 */
export function validate(name: SchemaName, data: unknown): FieldError[] {
  const v = getValidator(name);
  const schemaErrors = v(data) ? [] : (v.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'if').map(toFieldError);
  // The rules run even when the schema found problems, so a form shows every error at once; on
  // data of the wrong shape a rule may throw, and then the schema's errors are the answer.
  const rules = (SCHEMAS[name] as { rules?: Rules }).rules;
  let ruleErrors: FieldError[] = [];
  if (rules && data && typeof data === 'object' && !Array.isArray(data)) {
    try {
      ruleErrors = rules(data);
    } catch {
      ruleErrors = [];
    }
  }
  // anyOf branches and rules repeat the same problem; keep the first per field and key.
  const seen = new Set<string>();
  const errors = [...schemaErrors, ...ruleErrors].filter((e) => (seen.has(e.field + e.key) ? false : (seen.add(e.field + e.key), true)));
  if (!errors.length) storePhones(SCHEMAS[name].schema, data);
  return errors;
}

/** Rewrites, in place, every phone of valid data to its stored form (E.164), following the schema. */
function storePhones(schema: unknown, data: unknown): void {
  if (!schema || typeof schema !== 'object' || !data || typeof data !== 'object') return;
  const s = schema as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  if (Array.isArray(data)) {
    for (const item of data) storePhones(s.items, item);
    return;
  }
  const record = data as Record<string, unknown>;
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    const value = record[key];
    if ((sub as { format?: string }).format === 'phone' && typeof value === 'string') record[key] = toStoredPhone(value);
    else storePhones(sub, value);
  }
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) storePhones(branch, data);
}
