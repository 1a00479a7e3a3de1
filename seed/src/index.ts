/**
 * Reference data and the demo world: `node seed/dist/index.js` (DATABASE_URL).
 *
 * Idempotent, so it runs on every start: everything is upserted by its natural key (diagnosis code;
 * facility name + zip; division facility + name; group name; user e-mail) and a row is rewritten
 * only when its seeded values differ. Facilities and divisions pass the same validation as the API
 * (forms `validate('facility' | 'division')`) before they are written. All of it is one transaction,
 * under an advisory lock so two replicas starting together do not seed twice at once.
 */
import fs from 'fs';
import path from 'path';
import type { Client } from 'pg';
import { parse } from 'csv-parse/sync';
import { normalizeInput, OrganizationType, UserType, validate, type SchemaName } from '@crisis/forms';
import { hashPassword } from '@crisis/api/password-hash';
import { DEMO_CLIENT_ID, DEMO_KEY_ID, DEMO_PRIVATE_KEY_PEM } from '@crisis/api/ehr-demo-client';
import { chunks, connect, databaseUrl, inTransaction } from './db';
import { demoUsers, otherUsers, type DemoUser } from './demo-users';
import { seedReferenceData } from './reference-data';
import { seedEvaluationForms } from './evaluation-forms';
import { seedCaseWorld } from './cases';
import { FACILITIES, GROUP_ORGANIZATIONS, ITP_ORGANIZATION, type DivisionSeed, type FacilitySeed } from './world';

const DIAGNOSES_FILE = 'icd10cm-behavioral.tsv';
/**
 * The ICD-10-CM subset (shared/data/README.md): in SHARED_DIR/data (or SHARED_DIR itself), else
 * ../shared beside the repo, else the copy shipped in seed/data (a clone without shared/ still seeds).
 */
export function diagnosesFile(): string {
  const shared = process.env.SHARED_DIR;
  if (shared) {
    const direct = path.join(shared, DIAGNOSES_FILE);
    return fs.existsSync(direct) ? direct : path.join(shared, 'data', DIAGNOSES_FILE);
  }
  const beside = path.resolve(__dirname, '../../../shared/data', DIAGNOSES_FILE);
  return fs.existsSync(beside) ? beside : path.resolve(__dirname, '../data', DIAGNOSES_FILE);
}

export function readDiagnoses(file = diagnosesFile()): Array<{ code: string; description: string }> {
  const rows = parse(fs.readFileSync(file, 'utf8'), {
    delimiter: '\t',
    columns: true,
    skip_empty_lines: true,
    quote: false, // descriptions are plain text; a quote character is just a character
    trim: true,
  }) as Array<{ code: string; description: string }>;
  for (const [i, r] of rows.entries())
    if (!r.code || !r.description) throw new Error(`${file}: row ${i + 2} lacks a code or a description`);
  return rows;
}

/** Validates like the API does (trim, blanks → null, schema defaults, rules); throws on a bad seed row. */
function valid<T>(schemaName: SchemaName, data: unknown, what: string): T {
  const normalized = normalizeInput(data);
  const errors = validate(schemaName, normalized);
  if (errors.length) throw new Error(`seed ${what} is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
  return normalized as T;
}

/**
 * Writes a row found by its natural key: an UPDATE only when a seeded column differs (so a re-run
 * changes nothing), else an INSERT (ON CONFLICT (conflict) as a guard against a concurrent writer).
 * Looking first keeps re-runs from consuming sequence numbers. Returns the id.
 */
async function upsert(
  db: Client,
  table: string,
  conflict: string,
  values: Record<string, unknown>,
  find: { sql: string; params: unknown[] },
): Promise<number> {
  const cols = Object.keys(values);
  const vals = Object.values(values);
  const found = await db.query<{ id: number }>(find.sql, find.params);
  if (found.rows.length) {
    const id = found.rows[0].id;
    const placeholders = cols.map((_, i) => `$${i + 2}`);
    await db.query(
      `UPDATE ${table} SET ${cols.map((c, i) => `${c} = ${placeholders[i]}`).join(', ')}, updated_at = now()
        WHERE id = $1 AND (${cols.join(', ')}) IS DISTINCT FROM (${placeholders.join(', ')})`,
      [id, ...vals],
    );
    return id;
  }
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (${conflict}) DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
     RETURNING id`,
    vals,
  );
  return rows[0].id;
}

async function seedDiagnoses(db: Client): Promise<number> {
  const rows = readDiagnoses();
  for (const batch of chunks(rows, 1000))
    await db.query(
      `INSERT INTO diagnoses (code, description) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (code) DO UPDATE SET description = EXCLUDED.description WHERE diagnoses.description <> EXCLUDED.description`,
      [batch.map((r) => r.code), batch.map((r) => r.description)],
    );
  return rows.length;
}

async function seedItp(db: Client): Promise<number> {
  // A deployment has one ITP organization: the first row, created if missing.
  const { rows } = await db.query<{ id: number }>('SELECT id FROM itp_organization ORDER BY id LIMIT 1');
  if (rows.length) {
    await db.query(
      `UPDATE itp_organization SET name = $2, er_line = $3, mfa_enabled = $4, updated_at = now()
        WHERE id = $1 AND (name, er_line, mfa_enabled) IS DISTINCT FROM ($2, $3, $4)`,
      [rows[0].id, ITP_ORGANIZATION.name, ITP_ORGANIZATION.erLine, ITP_ORGANIZATION.mfaEnabled],
    );
    return rows[0].id;
  }
  const created = await db.query<{ id: number }>(
    'INSERT INTO itp_organization (name, er_line, mfa_enabled) VALUES ($1, $2, $3) RETURNING id',
    [ITP_ORGANIZATION.name, ITP_ORGANIZATION.erLine, ITP_ORGANIZATION.mfaEnabled],
  );
  return created.rows[0].id;
}

async function seedFacility(db: Client, seed: FacilitySeed): Promise<{ id: number; divisions: Map<string, number> }> {
  const { divisions, ehrConnection: _ehr, ...facility } = seed;
  const f = valid<any>('facility', { isGeoPositionManually: false, ...facility }, `facility ${seed.name}`);
  const id = await upsert(
    db,
    'facilities',
    '(lower(name)), zip_code',
    {
      name: f.name,
      description: f.description ?? null,
      allow_referring_divisions_access: f.allowReferringDivisionsAccess,
      allow_placement_only_cases: f.allowPlacementOnlyCases,
      is_active: f.isActive,
      is_mfa_enabled: f.isMfaEnabled,
      is_geo_position_manually: f.isGeoPositionManually,
      ehr_department_id: f.ehrDepartmentId ?? null,
      street_line: f.address.streetLine,
      apartment_number: f.address.apartmentNumber ?? null,
      city: f.address.city,
      state: f.address.state,
      zip_code: f.address.zipCode,
      county: f.address.county ?? null,
      latitude: f.geoPosition.latitude,
      longitude: f.geoPosition.longitude,
      contacts: JSON.stringify(f.contacts ?? {}),
    },
    { sql: 'SELECT id FROM facilities WHERE lower(name) = lower($1) AND zip_code = $2', params: [f.name, f.address.zipCode] },
  );
  const ids = new Map<string, number>();
  for (const d of divisions) ids.set(d.name, await seedDivision(db, id, d, seed.name));
  return { id, divisions: ids };
}

async function seedDivision(db: Client, facilityId: number, seed: DivisionSeed, facilityName: string): Promise<number> {
  const d = valid<any>('division', seed, `division ${facilityName} / ${seed.name}`);
  const source = d.type === 'Source';
  const arr = (v: string[] | null | undefined) => v ?? null;
  return upsert(
    db,
    'divisions',
    'facility_id, (lower(name))',
    {
      facility_id: facilityId,
      name: d.name,
      npi: d.npi ?? null,
      is_active: d.isActive,
      contacts: JSON.stringify(d.contacts ?? {}),
      type: d.type,
      description: d.description ?? null,
      // Only the fields of the division's type are kept; the others are null (as the API saves them).
      source_type: source ? d.sourceType : null,
      document_in_ehr: source ? d.documentInEHR : null,
      no_placement: source ? d.noPlacement : null,
      outcome_required: source ? d.outcomeRequired : null,
      show_billing_code: source ? d.showBillingCode : null,
      request_types: source ? arr(d.requestTypes) : null,
      referring_type: source ? null : d.referringType,
      criteria: source ? null : arr(d.criteria),
      accepted_patients: source ? null : JSON.stringify(d.acceptedPatients),
      genders: source ? null : arr(d.genders),
      veteran_only: source ? null : d.veteranOnly,
      extend_maximum_callback_time: source ? null : d.extendMaximumCallbackTime,
      score: source ? null : d.score,
    },
    { sql: 'SELECT id FROM divisions WHERE facility_id = $1 AND lower(name) = lower($2)', params: [facilityId, d.name] },
  );
}

/**
 * The demo facilities' EHR connections: each facility of the world with `ehrConnection` talks to the
 * local FHIR R4 server (api/src/ehr/fhir-local) as its demo client, whose fixed key is registered
 * there at every start. Skipped without EHR_LOCAL_BASE_URL (the stack always sets it). A connection
 * an admin changed since (another base URL, a generated key) is left alone.
 */
async function seedEhrConnections(db: Client) {
  const base = process.env.EHR_LOCAL_BASE_URL?.replace(/\/+$/, '');
  if (!base) return;
  for (const f of FACILITIES.filter((f) => f.ehrConnection)) {
    await db.query(
      `INSERT INTO facility_ehr_connections (facility_id, dialect, base_url, token_url, client_id, key_id, private_key_pem)
       SELECT id, $2, $3, $4, $5, $6, $7 FROM facilities WHERE name = $1
       ON CONFLICT (facility_id) DO UPDATE
         SET base_url = EXCLUDED.base_url, token_url = EXCLUDED.token_url
         WHERE facility_ehr_connections.client_id = EXCLUDED.client_id AND facility_ehr_connections.key_id = EXCLUDED.key_id`,
      [f.name, f.ehrConnection, base, `${base}/oauth2/token`, DEMO_CLIENT_ID, DEMO_KEY_ID, DEMO_PRIVATE_KEY_PEM],
    );
  }
}

async function seedGroups(db: Client, facilityIds: Map<string, number>): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const facilityId = (name: string) => {
    const id = facilityIds.get(name);
    if (!id) throw new Error(`seed group refers to an unknown facility ${name}`);
    return id;
  };
  for (const g of GROUP_ORGANIZATIONS) {
    const id = await upsert(
      db,
      'group_organizations',
      '(lower(name))',
      { name: g.name, description: g.description, is_active: true, states: g.states, counties: g.counties, mfa_enabled: g.mfaEnabled },
      { sql: 'SELECT id FROM group_organizations WHERE lower(name) = lower($1)', params: [g.name] },
    );
    ids.set(g.name, id);
    const links = [
      ...g.facilities.map((n) => [facilityId(n), 'included']),
      ...g.excludedFacilities.map((n) => [facilityId(n), 'excluded']),
      ...g.placementFacilities.map((n) => [facilityId(n), 'placement']),
    ];
    for (const [fid, kind] of links)
      await db.query(
        'INSERT INTO group_organization_facilities (group_id, facility_id, kind) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [id, fid, kind],
      );
  }
  return ids;
}

async function seedUser(
  db: Client,
  u: DemoUser,
  passwordHash: string,
  orgs: { facilities: Map<string, { id: number; divisions: Map<string, number> }>; groups: Map<string, number> },
): Promise<number> {
  const [firstName, ...rest] = u.name.split(' ');
  let organizationId: number | null = null;
  let divisionIds: number[] = [];
  const a = u.affiliation;
  if (a.organizationType === OrganizationType.Facility) {
    const facility = orgs.facilities.get(a.facility);
    if (!facility) throw new Error(`demo user ${u.email}: unknown facility ${a.facility}`);
    organizationId = facility.id;
    divisionIds = (a.divisions ?? []).map((n) => {
      const id = facility.divisions.get(n);
      if (!id) throw new Error(`demo user ${u.email}: unknown division ${n}`);
      return id;
    });
  } else if (a.organizationType === OrganizationType.Group) {
    organizationId = orgs.groups.get(a.group) ?? null;
    if (!organizationId) throw new Error(`demo user ${u.email}: unknown group ${a.group}`);
  }
  // Demo accounts must always work: every run resets the password, the failed-attempt counter and
  // both locks (a demo user locked out by someone's typos, or whose password was changed, is
  // usable again after a restart). Deliberate: these accounts are for demonstrations only.
  const id = await upsert(
    db,
    'users',
    '(lower(email))',
    {
      first_name: firstName,
      last_name: rest.join(' ') || firstName,
      email: u.email,
      phone: u.phone,
      job_title: u.jobTitle,
      is_active: true,
      creating: false,
      email_confirmed: true,
      password_hash: passwordHash,
      failed_login_count: 0,
      password_locked_out: false,
      locked_due_inactivity: false,
      mfa_method: u.mfaMethod ?? null,
      organization_type: a.organizationType,
      organization_id: organizationId,
      user_type: u.role,
      provider_info: u.providerInfo ? JSON.stringify({ biography: null, videoHostId: null, dialPadUrl: null, ...u.providerInfo }) : null,
      send_user_unlock_requests: u.sendUserUnlockRequeststoThisUser ?? false,
    },
    { sql: 'SELECT id FROM users WHERE lower(email) = lower($1)', params: [u.email] },
  );
  if (u.role === UserType.FacilityUser) {
    await db.query('DELETE FROM user_divisions WHERE user_id = $1 AND NOT (division_id = ANY($2::int[]))', [id, divisionIds]);
    await db.query(
      'INSERT INTO user_divisions (user_id, division_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [id, divisionIds],
    );
  }
  return id;
}

export interface SeedSummary {
  diagnoses: number;
  facilities: number;
  divisions: number;
  groups: number;
  users: number;
}

/** Seeds the reference data and the demo world; safe to run any number of times. */
export async function seed(url = databaseUrl()): Promise<SeedSummary> {
  const users = [...demoUsers, ...otherUsers];
  // One hash per distinct password, before the transaction: a hash costs about 0.3 s of CPU at the
  // production cost, and the demo passwords are public anyway (npm start prints them).
  const distinct = [...new Set(users.map((u) => u.password))];
  const hashOf = new Map(await Promise.all(distinct.map(async (p) => [p, await hashPassword(p)] as const)));
  const hashes = users.map((u) => hashOf.get(u.password)!);
  const db = await connect(url);
  try {
    return await inTransaction(db, 'crisis-seed', async () => {
      const diagnoses = await seedDiagnoses(db);
      await seedItp(db);
      await seedReferenceData(db);
      await seedEvaluationForms(db);
      const facilities = new Map<string, { id: number; divisions: Map<string, number> }>();
      for (const f of FACILITIES) facilities.set(f.name, await seedFacility(db, f));
      const groups = await seedGroups(db, new Map([...facilities].map(([n, f]) => [n, f.id])));
      for (const [i, u] of users.entries()) await seedUser(db, u, hashes[i], { facilities, groups });
      await seedCaseWorld(db);
      await seedEhrConnections(db);
      return {
        diagnoses,
        facilities: facilities.size,
        divisions: [...facilities.values()].reduce((n, f) => n + f.divisions.size, 0),
        groups: groups.size,
        users: users.length,
      };
    });
  } finally {
    await db.end();
  }
}

if (require.main === module) {
  const started = Date.now();
  seed()
    .then((s) =>
      console.log(
        `seed: ${s.diagnoses} diagnoses, ${s.facilities} facilities, ${s.divisions} divisions, ${s.groups} group(s), ${s.users} users (${Date.now() - started} ms)`,
      ),
    )
    .catch((err) => {
      console.error('seed failed:', err);
      process.exit(1);
    });
}
