/**
 * Demo reference data of spec 03: payers, billing codes and patient tags. Idempotent: each row is
 * found by its natural key (case-insensitive name or code), inserted when missing and rewritten
 * only when its seeded values differ. Rows pass the same schemas as the API before being written.
 */
import type { Client } from 'pg';
import { normalizeInput, validate, type SchemaName } from '@crisis/forms';

export const PAYERS = [
  { name: 'Florida Blue', code: 'FLBLUE', planName: 'BlueOptions PPO', address: { streetLine: '4800 Deerwood Campus Pkwy', city: 'Jacksonville', state: 'FL', zipCode: '32246', phone: '(800) 352-2583' } },
  { name: 'Aetna', code: 'AETNA', planName: 'Aetna Choice POS II', address: { streetLine: '151 Farmington Ave', city: 'Hartford', state: 'CT', zipCode: '06156', phone: '(800) 872-3862' } },
  { name: 'Cigna', code: 'CIGNA', planName: 'Open Access Plus', address: { streetLine: '900 Cottage Grove Rd', city: 'Bloomfield', state: 'CT', zipCode: '06002', phone: '(800) 997-1654' } },
  { name: 'Humana', code: 'HUMANA', planName: 'Humana Gold Plus HMO', address: { streetLine: '500 W Main St', city: 'Louisville', state: 'KY', zipCode: '40202', phone: '(800) 457-4708' } },
  { name: 'UnitedHealthcare', code: 'UHC', planName: 'Choice Plus', address: { streetLine: '9900 Bren Rd E', city: 'Minnetonka', state: 'MN', zipCode: '55343', phone: '(866) 633-2446' } },
  { name: 'Florida Medicaid', code: 'FLMCD', planName: 'Statewide Medicaid Managed Care', address: { streetLine: '2727 Mahan Dr', city: 'Tallahassee', state: 'FL', zipCode: '32308', phone: '(877) 711-3662' } },
  { name: 'Georgia Medicaid', code: 'GAMCD', planName: 'Georgia Families', address: { streetLine: '2 Peachtree St NW', city: 'Atlanta', state: 'GA', zipCode: '30303', phone: '(866) 211-0950' } },
  { name: 'Medicare', code: 'MCR', planName: 'Original Medicare Part B', address: { streetLine: '7500 Security Blvd', city: 'Baltimore', state: 'MD', zipCode: '21244', phone: '(800) 633-4227' } },
  { name: 'TRICARE', code: 'TRICARE', planName: 'TRICARE Select', address: { streetLine: '7700 Arlington Blvd', city: 'Falls Church', state: 'VA', zipCode: '22042', phone: '(800) 444-5445' } },
  { name: 'Self-pay', code: 'SELF', planName: null, address: null, isActive: true },
  { name: 'Legacy Health Plan', code: 'LEGACY', planName: 'Legacy Classic', address: null, isActive: false },
];

const ALL_SOURCE = ['ErCrisis', 'MedFloor', 'PsychUnit'];
export const BILLING_CODES = [
  { code: '90791', description: 'Psychiatric diagnostic evaluation', sourceDivisionTypes: ALL_SOURCE, requestTypes: ['Assessment', 'Reassessment', 'TelepsychUrgentCrisisEvaluation'] },
  { code: '90792', description: 'Psychiatric diagnostic evaluation with medical services', sourceDivisionTypes: ALL_SOURCE, requestTypes: ['Assessment', 'TelepsychPsychiatryConsult'] },
  { code: '90839', description: 'Psychotherapy for crisis, first 60 minutes', sourceDivisionTypes: ['ErCrisis'], requestTypes: ['TelepsychUrgentCrisisEvaluation'] },
  { code: '90840', description: 'Psychotherapy for crisis, each additional 30 minutes', sourceDivisionTypes: ['ErCrisis'], requestTypes: ['TelepsychUrgentCrisisEvaluation'] },
  { code: '99231', description: 'Subsequent hospital care, low complexity', sourceDivisionTypes: ['MedFloor', 'PsychUnit'], requestTypes: ['TelepsychiatryFollowUp'] },
  { code: '99232', description: 'Subsequent hospital care, moderate complexity', sourceDivisionTypes: ['MedFloor', 'PsychUnit'], requestTypes: ['TelepsychiatryFollowUp'] },
  { code: '99446', description: 'Interprofessional telephone consultation, 5-10 minutes', sourceDivisionTypes: ALL_SOURCE, requestTypes: ['PhoneConsultation'] },
  { code: 'H0001', description: 'Alcohol and/or drug assessment', sourceDivisionTypes: ALL_SOURCE, requestTypes: ['ASAMAssessment'] },
  { code: 'H0031', description: 'Mental health assessment by non-physician', sourceDivisionTypes: ALL_SOURCE, requestTypes: ['Assessment', 'FileReview', 'PlacementOnly'] },
];

export const PATIENT_TAGS = ['Veteran', 'High risk', 'Frequent presenter', 'Interpreter needed', 'Guardian involved', 'Baker Act'];

function valid<T>(schemaName: SchemaName, data: unknown, what: string): T {
  const normalized = normalizeInput(data);
  const errors = validate(schemaName, normalized);
  if (errors.length) throw new Error(`seed ${what} is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
  return normalized as T;
}

/** Inserts by natural key, or updates when a seeded column differs. */
async function put(db: Client, table: string, key: { column: string; value: string }, values: Record<string, unknown>, casts: Record<string, string> = {}) {
  const cols = Object.keys(values);
  const ph = (i: number, c: string) => `$${i}${casts[c] ?? ''}`;
  const found = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE lower(${key.column}) = lower($1)`, [key.value]);
  if (found.rows.length) {
    const sets = cols.map((c, i) => `${c} = ${ph(i + 2, c)}`).join(', ');
    await db.query(
      `UPDATE ${table} SET ${sets}, updated_at = now() WHERE id = $1 AND (${cols.join(', ')}) IS DISTINCT FROM (${cols.map((c, i) => ph(i + 2, c)).join(', ')})`,
      [found.rows[0].id, ...Object.values(values)],
    );
    return;
  }
  await db.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c, i) => ph(i + 1, c)).join(', ')})`, Object.values(values));
}

/** Seeds payers, billing codes and patient tags (inside the caller's transaction). */
export async function seedReferenceData(db: Client): Promise<{ payers: number; billingCodes: number; patientTags: number }> {
  for (const p of PAYERS) {
    const v = valid<any>('payer', { isActive: true, ...p }, `payer ${p.name}`);
    await put(
      db,
      'payers',
      { column: 'name', value: v.name },
      { name: v.name, code: v.code ?? null, is_active: v.isActive, plan_name: v.planName ?? null, address: v.address ? JSON.stringify(v.address) : null },
      { address: '::jsonb' },
    );
  }
  for (const b of BILLING_CODES) {
    const v = valid<any>('billingCode', { isActive: true, ...b }, `billing code ${b.code}`);
    await put(
      db,
      'billing_codes',
      { column: 'code', value: v.code },
      { code: v.code, description: v.description, source_division_types: v.sourceDivisionTypes, request_types: v.requestTypes, is_active: v.isActive },
      { source_division_types: '::text[]', request_types: '::text[]' },
    );
  }
  for (const name of PATIENT_TAGS) {
    valid('patientTag', { name }, `patient tag ${name}`);
    await db.query(
      'INSERT INTO patient_tags (name) SELECT $1::text WHERE NOT EXISTS (SELECT 1 FROM patient_tags WHERE lower(name) = lower($1::text))',
      [name],
    );
  }
  return { payers: PAYERS.length, billingCodes: BILLING_CODES.length, patientTags: PATIENT_TAGS.length };
}
