import { UserType } from '@crisis/forms';
import { api } from '../support/api';
import { createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';
import { createTestUser } from '../support/users';

/**
 * Server-side rules of a case's own record (spec 01 §4 Insurance states, §6; spec 02 §2
 * out-of-state checkbox): the responsible party follows the relation at case creation too; the
 * out-of-state choice is taken only where the toggle is offered; one source-side test for patient,
 * insurance, vitals and case-note edits.
 */
describe('case source side, responsible party and out-of-state rules', () => {
  let itp: string;
  let tampaAdmin: string;
  let sunriseAdmin: string;
  let providerId: number;
  let sunriseAdultId: number;
  let payerId: number;
  let tampa: { facilityId: number; edId: number; floorId: number };

  const body = (patient: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
    token: itp,
    facilityId: tampa.facilityId,
    divisionId: tampa.floorId,
    providerId,
    patient,
    body: over,
  });

  beforeAll(async () => {
    itp = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    tampaAdmin = (await signInAs('Facility_Admin')).accessToken;
    tampa = await tampaDivisions();
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    const sunrise = (await db.query("SELECT d.id, d.facility_id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = 'Sunrise Behavioral Health Hospital' AND d.name = 'Adult Inpatient Unit'")).rows[0];
    sunriseAdultId = sunrise.id;
    sunriseAdmin = await (await createTestUser(UserType.FacilityAdmin, { facilityId: sunrise.facility_id, label: 'sunriseadmin' })).signIn();
    payerId = (await db.query('SELECT id FROM payers WHERE is_active ORDER BY id LIMIT 1')).rows[0].id;
  });
  afterAll(() => db.end());

  it('at case creation, relation Self copies the patient into the responsible party and another relation clears the copy', async () => {
    const patient = { firstName: `Rp${uniqueLetters()}`, lastName: 'Party', dateOfBirth: '1980-05-06', phone: '+18135550123' };
    const copy = { firstName: patient.firstName, lastName: 'Party', contactPhoneNumber: '+18135550123', dateOfBirth: '1980-05-06', role: 'Self' };
    const c = await createCase(
      body(patient, {
        uninsured: false,
        insurances: [
          { payerId, insuranceId: 'RP-1', relationToInsured: 'Self', responsibleParty: { firstName: 'Some', lastName: 'One', role: 'Mother' } },
          { payerId, insuranceId: 'RP-2', relationToInsured: 'Spouse', responsibleParty: copy },
          { payerId, insuranceId: 'RP-3', relationToInsured: 'Spouse', responsibleParty: { firstName: 'Sam', lastName: 'Spouse', role: 'Spouse' } },
        ],
      }),
    );
    const list = await api('GET', `/api/cases/${c.id}/insurances`, { token: itp });
    expect(list.status).toBe(200);
    expect(list.body.insurances.map((i: any) => [i.insuranceId, i.responsibleParty])).toEqual([
      ['RP-1', copy],
      ['RP-2', null],
      ['RP-3', { firstName: 'Sam', lastName: 'Spouse', role: 'Spouse' }],
    ]);
    // An edit from Self to another relation clears the copied party too.
    const first = list.body.insurances[0];
    const edited = await api('PUT', `/api/cases/${c.id}/insurances/${first.id}`, {
      token: itp,
      body: { payerId, insuranceId: 'RP-1', relationToInsured: 'Child', responsibleParty: first.responsibleParty },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.responsibleParty).toBeNull();
  });

  it('refuses the out-of-state choice where the toggle is not offered, and changes nothing', async () => {
    // Tampa does not populate out-of-state facilities: the toggle is shown for no case of it.
    for (const isInvoluntary of [false, true]) {
      const c = await createCase(body({}, { isInvoluntary }));
      const res = await api('PUT', `/api/cases/${c.id}/include-out-of-state`, { token: itp, body: { includeOutOfState: true } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INV');
      const row = await db.query('SELECT include_out_of_state_facilities AS v FROM cases WHERE id = $1', [c.id]);
      expect(row.rows[0].v).toBe(false);
    }
  });

  it('one source-side test: a referring facility admin granted the case edits neither its patient, insurances, vitals nor notes', async () => {
    const patient = { firstName: `Ss${uniqueLetters()}`, lastName: 'Side', dateOfBirth: '1979-01-02', gender: 'Male', address: { streetLine: '1 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' } };
    const c = await createCase(body(patient));
    await db.query('INSERT INTO case_referring_access (case_id, division_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [c.id, sunriseAdultId]);
    const now = new Date().toISOString();
    const writes: Array<[string, string, unknown]> = [
      ['PUT', `/api/cases/${c.id}/patient`, { ...patient, phone: '+18135550777' }],
      ['POST', `/api/cases/${c.id}/insurances`, { payerId, insuranceId: 'SS-1' }],
      ['PUT', `/api/cases/${c.id}/insurances/uninsured`, { uninsured: false }],
      ['POST', `/api/cases/${c.id}/vitals`, { submittedOn: now, pulse: 70 }],
      ['POST', `/api/cases/${c.id}/notes`, { note: 'from the referring side' }],
    ];
    // She reads the case (it was granted to her facility's division)…
    expect((await api('GET', `/api/cases/${c.id}`, { token: sunriseAdmin })).status).toBe(200);
    for (const [method, path, payload] of writes) {
      const res = await api(method, path, { token: sunriseAdmin, body: payload });
      expect([method, path, res.status, res.body?.code]).toEqual([method, path, 403, 'FRBD']);
    }
    const p = await db.query('SELECT phone FROM patients p JOIN cases c ON c.patient_id = p.id WHERE c.id = $1', [c.id]);
    expect(p.rows[0].phone).toBeNull();
    // …while the source facility's admin makes the same edits.
    for (const [method, path, payload] of writes) {
      const res = await api(method, path, { token: tampaAdmin, body: payload });
      expect([method, path, res.status < 300]).toEqual([method, path, true]);
    }
  });
});
