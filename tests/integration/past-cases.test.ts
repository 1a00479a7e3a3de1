/**
 * Past cases (spec 02 §2 "Past cases", §5 "Past cases and patients", §6, §7 past and its CSVs):
 * each role's scope, every filter against expectations worked out by hand on a seeded set, the
 * sort, the recency classes, the coded refusals, and the three CSVs read back.
 */
import { parse } from 'csv-parse/sync';
import { BILLING_CSV_COLUMNS, DIAGNOSTICS_CSV_COLUMNS, ErrorCode, PAST_CASE_CSV_COLUMNS, type PastCaseFilter, type PastCaseItem } from '@crisis/forms';
import { API_URL, api } from '../support/api';
import { createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

type Role = 'IntegratedTelehealthPartners_Admin' | 'IntegratedTelehealthPartners_User' | 'IntegratedTelehealthPartners_Provider' | 'Facility_Admin' | 'Facility_User' | 'Group_User';

describe('past cases', () => {
  const token: Partial<Record<Role, string>> = {};
  const lastName = `Past${uniqueLetters()}`;
  /** The seeded set, by letter: A, B, C closed in March; D, E still open. */
  const ids: Record<string, number> = {};
  let sunrise: number;
  let gainesville: number;
  let providerName: string;

  const list = async (who: Role, filter: PastCaseFilter = {}, extra: Record<string, string> = {}) => {
    const search = new URLSearchParams({ filter: JSON.stringify({ patientOrCase: lastName, ...filter }), range: '[0,99]', ...extra });
    return api<PastCaseItem[]>('GET', `/api/cases/past?${search}`, { token: token[who] });
  };
  const letters = async (who: Role, filter: PastCaseFilter = {}, extra: Record<string, string> = {}) => {
    const res = await list(who, filter, extra);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    return res.body.map((r) => byId[r.id]).join('');
  };
  const csv = async (who: Role, path: string, filter: PastCaseFilter = {}) => {
    const res = await fetch(`${API_URL}/api/cases/past/${path}?${new URLSearchParams({ filter: JSON.stringify({ patientOrCase: lastName, ...filter }) })}`, {
      headers: { authorization: `Bearer ${token[who]}` },
    });
    return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), rows: res.status === 200 ? (parse(await res.text()) as string[][]) : [] };
  };

  beforeAll(async () => {
    for (const role of ['IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User', 'IntegratedTelehealthPartners_Provider', 'Facility_Admin', 'Facility_User', 'Group_User'] as Role[])
      token[role] = (await signInAs(role)).accessToken;
    const tampa = await tampaDivisions();
    const q = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows;
    const division = async (facility: string) =>
      (await q(`SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = $1 AND d.type = 'Referring' ORDER BY d.id LIMIT 1`, [facility]))[0].id;
    sunrise = (await q(`SELECT id FROM facilities WHERE name = 'Sunrise Behavioral Health Hospital'`))[0].id;
    gainesville = (await q(`SELECT id FROM facilities WHERE name = 'Gainesville Med-Psych Institute'`))[0].id;
    const orlando = (await q(`SELECT f.id AS facility, d.id AS division FROM facilities f JOIN divisions d ON d.facility_id = f.id
                               WHERE f.county = 'Orange County' AND d.type = 'Source' ORDER BY d.id LIMIT 1`))[0];
    const provider = (await q(`SELECT id, first_name || ' ' || last_name AS name FROM users WHERE email = 'provider@itp.example.org'`))[0];
    providerName = provider.name;
    const payer = (await q('SELECT id, name FROM payers WHERE is_active ORDER BY id LIMIT 1'))[0];
    const code = (await q('SELECT id, code FROM billing_codes ORDER BY id LIMIT 1'))[0];

    // Closed cases, written as the case writer leaves them (outcome, closing time, locating total).
    const closed = async (letter: string, o: { first: string; facility: number; division: number; createdAt: string; outcome: string; referring: number | null; uninsured?: boolean; locating?: number }) => {
      const [p] = await q(`INSERT INTO patients (first_name, last_name, date_of_birth, gender) VALUES ($1, $2, '1980-05-06', 'Female') RETURNING id`, [o.first, lastName]);
      const [c] = await q(
        `INSERT INTO cases (patient_id, status, source_facility_id, source_division_id, created_at, closed_at, status_changed_at, outcome_type,
                            outcome_referring_division_id, uninsured, locating_services_seconds)
         VALUES ($1, 'Closed', $2, $3, $4, $4::timestamptz + interval '6 hours', $4::timestamptz + interval '6 hours', $5, $6, $7, $8) RETURNING id`,
        [p.id, o.facility, o.division, o.createdAt, o.outcome, o.referring, o.uninsured ?? false, o.locating ?? 0],
      );
      ids[letter] = c.id;
      return { caseId: c.id as number, patientId: p.id as number };
    };
    const a = await closed('A', { first: 'Alma', facility: tampa.facilityId, division: tampa.edId, createdAt: '2026-03-10T12:00:00Z', outcome: 'Transferred_MentalHealthInpatient', referring: await division('Sunrise Behavioral Health Hospital'), locating: 3_720 });
    await closed('B', { first: 'Bea', facility: tampa.facilityId, division: tampa.edId, createdAt: '2026-03-12T12:00:00Z', outcome: 'LeftAMA', referring: null, uninsured: true });
    // 03:00 UTC on the 15th is still the 14th in New York.
    await closed('C', { first: 'Cleo', facility: orlando.facility, division: orlando.division, createdAt: '2026-03-15T03:00:00Z', outcome: 'Transferred_CrisisCenter', referring: await division('Gainesville Med-Psych Institute') });
    // A's completed evaluation by the provider (billing and diagnostics lines), and its insurance.
    const [r] = await q(
      `INSERT INTO requests (case_id, type, status, evaluation_provider_id, created_at, completed_at) VALUES ($1, 'Assessment', 'Completed', $2, '2026-03-10T13:00:00Z', '2026-03-10T14:00:00Z') RETURNING id`,
      [a.caseId, provider.id],
    );
    await q(`INSERT INTO evaluations (request_id, primary_diagnosis, secondary_diagnoses, billing_code_ids) VALUES ($1, 'F32.9', '{F41.1}', $2)`, [r.id, [code.id]]);
    await q(`INSERT INTO patient_insurances (case_id, patient_id, payer_id, insurance_id, group_id, position) VALUES ($1, $2, $3, 'MEM-778', 'GRP-1', 0)`, [a.caseId, a.patientId, payer.id]);
    Object.assign(fixture, { payer: payer.name, code: code.code, requestId: r.id });

    // Open cases, created through the API (each has its workflow), then aged by hand: D up to 2 hours
    // but still today (the recency class counts calendar days: just after midnight, 2 hours is yesterday), E 50 hours.
    const coordinator = token.IntegratedTelehealthPartners_User!;
    const sinceMidnight = (Date.now() % 86_400_000) / 1000;
    for (const [letter, seconds] of [['D', Math.min(7200, sinceMidnight / 2)], ['E', 50 * 3600]] as const) {
      const c = await createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId: provider.id, patient: { lastName, firstName: `Open${letter}` } });
      await q(`UPDATE cases SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, [c.id, seconds]);
      ids[letter] = c.id;
    }
  });
  const fixture: { payer?: string; code?: string; requestId?: number } = {};

  it('lists closed cases newest first with the columns of the table', async () => {
    expect(await letters('IntegratedTelehealthPartners_User')).toBe('CBA');
    const a = (await list('IntegratedTelehealthPartners_User')).body.find((r) => r.id === ids.A)!;
    expect(a).toMatchObject({
      referenceNumber: ids.A,
      status: 'Closed',
      outcome: 'Transferred_MentalHealthInpatient',
      referringFacility: { id: sunrise, name: 'Sunrise Behavioral Health Hospital' },
      sourceFacility: { name: 'Tampa Bay General Hospital', county: 'Hillsborough County' },
      patient: { firstName: 'Alma', lastName },
      locatingServicesSeconds: 3_720,
      providers: [providerName],
      payers: [fixture.payer],
      insurance: 'insured',
      recency: 'over180',
    });
    const rows = (await list('IntegratedTelehealthPartners_User')).body;
    expect(rows.find((r) => r.id === ids.B)).toMatchObject({ insurance: 'uninsured', payers: [], providers: [], referringFacility: null });
    expect(rows.find((r) => r.id === ids.C)).toMatchObject({ insurance: 'notProvided' });
    expect(await letters('IntegratedTelehealthPartners_User', {}, { sort: '["createdAt","ASC"]' })).toBe('ABC');
    expect(await letters('IntegratedTelehealthPartners_User', {}, { sort: '["locatingServices","DESC"]' })).toBe('ACB');
  });

  it('scopes each role: the provider his evaluations, the facility admin her facility, the group user his group; not facility users', async () => {
    expect(await letters('IntegratedTelehealthPartners_Admin')).toBe('CBA');
    expect(await letters('IntegratedTelehealthPartners_Provider')).toBe('A');
    expect(await letters('Facility_Admin')).toBe('BA');
    // North Florida: A was placed in Sunrise (Duval), C in Gainesville (a group facility); B left from Tampa.
    expect(await letters('Group_User')).toBe('CA');
    const refused = await list('Facility_User');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ErrorCode.Forbidden);
  });

  it('filters by dates (in the caller\'s time zone), referring facilities, outcomes, counties, case number and active hours', async () => {
    const itp = 'IntegratedTelehealthPartners_User';
    expect(await letters(itp, { from: '2026-03-11', to: '2026-03-14' })).toBe('B');
    expect(await letters(itp, { from: '2026-03-11', to: '2026-03-14' }, { tz: 'America/New_York' })).toBe('CB');
    expect(await letters(itp, { from: '2026-03-12' })).toBe('CB');
    expect(await letters(itp, { to: '2026-03-10' })).toBe('A');
    expect(await letters(itp, { referringFacilityIds: [sunrise] })).toBe('A');
    expect(await letters(itp, { referringFacilityIds: [sunrise, gainesville] })).toBe('CA');
    expect(await letters(itp, { outcomes: ['LeftAMA', 'Transferred_CrisisCenter'] })).toBe('CB');
    expect(await letters('Group_User', { counties: ['Duval County'] })).toBe('A');
    expect(await letters('Group_User', { counties: ['Alachua County', 'Leon County'] })).toBe('C');
    expect(await letters(itp, { patientOrCase: `#${String(ids.B).padStart(6, '0')}` })).toBe('B');
    expect(await letters(itp, { patientOrCase: `cleo ${lastName}` })).toBe('C');
    expect(await letters(itp, { activeOnly: true })).toBe('DE');
    expect(await letters(itp, { activeOnly: true, activeCaseHours: 24 })).toBe('D');
    expect((await list(itp, { activeOnly: true, activeCaseHours: 24 })).body[0].recency).toBe('today');
    expect(await letters(itp, { outcomes: ['LeftAMA'], referringFacilityIds: [sunrise] })).toBe('');
  });

  it('refuses a bad search with a coded 400 naming the field', async () => {
    const itp = 'IntegratedTelehealthPartners_User';
    const cases: Array<[PastCaseFilter, string, string]> = [
      [{ from: '2026-03-14', to: '2026-03-11' }, 'to', 'crossTime'],
      [{ from: '2999-01-01' }, 'from', 'future'],
      [{ to: '1900-01-01' }, 'to', 'minDate'],
      [{ activeOnly: true, activeCaseHours: 100 }, 'activeCaseHours', 'maximum'],
      [{ activeCaseHours: 5 }, 'activeCaseHours', 'needsActiveOnly'],
      [{ outcomes: ['Teleported'] }, 'outcomes', 'enum'],
      [{ from: '03/11/2026' }, 'from', 'format'],
    ];
    for (const [filter, field, key] of cases) {
      const res = await list(itp, filter);
      expect({ filter, status: res.status, code: res.body.code }).toEqual({ filter, status: 400, code: ErrorCode.Invalid });
      expect((res.body.fields ?? []).map((e: any) => [String(e.field).replace(/^filter\./, '').split(/[[./]/)[0], e.key])).toContainEqual([field, key]);
    }
    const badTz = await list(itp, {}, { tz: 'Mars/Olympus' });
    expect(badTz.status).toBe(400);
  });

  it('exports the search as CSV for every past-case role, and the billing and diagnostics CSVs for the ITP admin only', async () => {
    const all = await csv('Group_User', 'csv');
    expect(all).toMatchObject({ status: 200, type: expect.stringContaining('text/csv'), disposition: expect.stringContaining('past-cases.csv') });
    expect(all.rows[0]).toEqual([...PAST_CASE_CSV_COLUMNS]);
    expect(all.rows.slice(1).map((r) => r[1])).toEqual([ids.C, ids.A].map((id) => `#${String(id).padStart(6, '0')}`));
    const a = all.rows[2];
    expect(a[PAST_CASE_CSV_COLUMNS.indexOf('Referring facility')]).toBe('Sunrise Behavioral Health Hospital');
    expect(a[PAST_CASE_CSV_COLUMNS.indexOf('Locating services time')]).toBe('1h 2m');
    expect(a[PAST_CASE_CSV_COLUMNS.indexOf('Payers')]).toBe(fixture.payer);
    expect(a[PAST_CASE_CSV_COLUMNS.indexOf('Providers')]).toBe(providerName);
    // The same filters as the page.
    expect((await csv('IntegratedTelehealthPartners_User', 'csv', { outcomes: ['LeftAMA'] })).rows.slice(1).map((r) => r[PAST_CASE_CSV_COLUMNS.indexOf('Payers')])).toEqual(['Uninsured']);

    const billing = await csv('IntegratedTelehealthPartners_Admin', 'billing/csv');
    expect(billing.rows[0]).toEqual([...BILLING_CSV_COLUMNS]);
    expect(billing.rows).toHaveLength(2);
    const line = Object.fromEntries(BILLING_CSV_COLUMNS.map((c, i) => [c, billing.rows[1][i]]));
    expect(line).toMatchObject({ 'Request id': String(fixture.requestId), Provider: providerName, 'Patient last name': lastName, 'Billing codes': fixture.code, 'Primary payer': fixture.payer, 'Member id': 'MEM-778', 'Group id': 'GRP-1', Uninsured: 'No' });

    const diagnostics = await csv('IntegratedTelehealthPartners_Admin', 'athena/csv');
    expect(diagnostics.rows[0]).toEqual([...DIAGNOSTICS_CSV_COLUMNS]);
    const code = DIAGNOSTICS_CSV_COLUMNS.indexOf('Diagnosis code');
    expect(diagnostics.rows.slice(1).map((r) => [r[code], r[code + 2]])).toEqual([['F32.9', 'Yes'], ['F41.1', 'No']]);

    for (const who of ['IntegratedTelehealthPartners_User', 'IntegratedTelehealthPartners_Provider', 'Facility_Admin', 'Group_User'] as Role[]) {
      expect((await csv(who, 'billing/csv')).status).toBe(403);
      expect((await csv(who, 'athena/csv')).status).toBe(403);
    }
    expect((await csv('Facility_User', 'csv')).status).toBe(403);
    // Audited as a read of patient data, with the search.
    const [entry] = (await db.query(`SELECT "values" FROM audit_log WHERE main_action = 'PastCases.Export.Billing' ORDER BY id DESC LIMIT 1`)).rows;
    expect(entry.values.filter.patientOrCase).toBe(lastName);
  });

  it("gives the group user a past case's activity report and PDF export, not its page, and only for his group's closed cases", async () => {
    const gu = { token: token.Group_User };
    expect((await api('GET', `/api/cases/${ids.A}/activity/report`, gu)).status).toBe(200);
    const pdf = await fetch(`${API_URL}/api/cases/${ids.A}/pdf?includeEvaluations=true`, { headers: { authorization: `Bearer ${token.Group_User}` } });
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect((await api('GET', `/api/cases/${ids.A}`, gu)).status).toBe(403);
    expect((await api('GET', `/api/cases/${ids.A}/pdf?includeCaseNotes=true`, gu)).status).toBe(403);
    // B left from Tampa and was not placed in the group; D is open.
    expect((await api('GET', `/api/cases/${ids.B}/activity/report`, gu)).status).toBe(403);
    expect((await api('GET', `/api/cases/${ids.D}/activity/report`, gu)).status).toBe(403);
  });

  it('offers the referring facilities of the user\'s past cases and the group user\'s counties', async () => {
    const mine = await api('GET', '/api/cases/past/filter-options', { token: token.Group_User });
    expect(mine.status).toBe(200);
    expect(mine.body.counties).toEqual(['Duval County', 'Alachua County', 'Leon County']);
    expect(mine.body.referringFacilities.map((f: any) => f.id)).toEqual(expect.arrayContaining([sunrise, gainesville]));
    const provider = await api('GET', '/api/cases/past/filter-options', { token: token.IntegratedTelehealthPartners_Provider });
    expect(provider.body.counties).toEqual([]);
    expect(provider.body.referringFacilities.map((f: any) => f.id)).toContain(sunrise);
  });
});
