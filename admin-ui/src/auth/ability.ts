import { createMongoAbility, subject as asSubject } from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';
import type { Action, AppAbility, Subject, UserContext } from '@crisis/forms/core';

/** The ability of the signed-in user, from the packed rules the API sends in the user context. */
export function abilityFromContext(context: UserContext): AppAbility {
  const rules = unpackRules(context.rules as PackRule<any>[]);
  return createMongoAbility(rules) as AppAbility;
}

/** react-admin actions → CASL actions. */
const ACTIONS: Record<string, Action> = {
  list: 'list',
  show: 'read',
  read: 'read',
  edit: 'update',
  update: 'update',
  create: 'create',
  delete: 'delete',
  export: 'list',
  clone: 'create',
};

/** react-admin resources → CASL subjects. */
export const SUBJECT_BY_RESOURCE: Record<string, Subject> = {
  facilities: 'Facility',
  divisions: 'Division',
  users: 'User',
  'group-organizations': 'Group',
  payers: 'Payer',
  'billing-codes': 'BillingCode',
  'patient-tags': 'PatientTag',
  'evaluation-forms': 'EvaluationForm',
  patients: 'Patient',
  activity: 'AuditLog',
};

/**
 * Whether the ability allows a react-admin action on a resource. Without a record, CASL answers
 * for the subject type (a conditional rule counts); with one, the conditions are checked.
 * A field-level resource ("facilities.isMfaEnabled") checks that field.
 */
export function abilityAllows(
  ability: AppAbility,
  action: string,
  resource: string,
  record?: Record<string, unknown>,
): boolean {
  const [base, field] = resource.split('.');
  const subjectType = SUBJECT_BY_RESOURCE[base];
  if (!subjectType) return false;
  const casl = ACTIONS[action] ?? (action as Action);
  const target = record ? (asSubject(subjectType, { ...record }) as unknown as Record<string, unknown>) : subjectType;
  return ability.can(casl, target, field);
}
