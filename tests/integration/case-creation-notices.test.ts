import { ALREADY_ACCEPTED_MESSAGE, recentVisitsToReview } from '@crisis/forms';
import { api } from '../support/api';
import { caseBody, createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * What case creation tells about a patient (spec 01 §8 "Other messages", §9): seen at the facility
 * in the last 3 months (review prompt), already accepted in another facility (refused with its
 * message), a last case from the old system.
 */
describe('case creation notices', () => {
  let itp: string;
  let facility: string;
  let providerId: number;
  let tampa: { facilityId: number; edId: number; floorId: number };

  beforeAll(async () => {
    itp = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    facility = (await signInAs('Facility_User')).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    tampa = await tampaDivisions();
  });
  afterAll(() => db.end());

  const search = (token: string, p: { firstName: string; lastName: string; dateOfBirth: string }) =>
    api('GET', `/api/cases/search-patient?firstName=${p.firstName}&lastName=${p.lastName}&dateOfBirth=${p.dateOfBirth}`, { token });

  it('names the recent visits, the accepting facility and an old-system last case; refuses a case for an accepted patient', async () => {
    const patient = { firstName: `Nt${uniqueLetters()}`, lastName: 'Notice', dateOfBirth: '1975-07-08' };
    const first = await createCase({ token: itp, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, patient });
    const patientId = (await db.query('SELECT patient_id FROM cases WHERE id = $1', [first.id])).rows[0].patient_id;

    // Seen at Tampa today: the search says so, to the ITP and to Tampa's own staff.
    const [itpMatch] = (await search(itp, patient)).body;
    expect(itpMatch).toMatchObject({ id: patientId, activeCase: true, acceptedIn: null, lastCaseFromOldSystem: false });
    expect(itpMatch.recentVisits).toEqual([expect.objectContaining({ facilityId: tampa.facilityId, facilityName: 'Tampa Bay General Hospital' })]);
    expect(recentVisitsToReview(itpMatch.recentVisits, tampa.facilityId)).toHaveLength(1);
    const [own] = (await search(facility, patient)).body;
    expect(own.recentVisits.map((v: any) => v.facilityId)).toEqual([tampa.facilityId]);

    // A referring division accepts the open case: a new case is refused with the spec's message.
    const sunrise = (await db.query("SELECT d.id, d.facility_id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = 'Sunrise Behavioral Health Hospital' AND d.name = 'Adult Inpatient Unit'")).rows[0].id;
    await db.query('INSERT INTO case_referring_access (case_id, division_id, accepted_at) VALUES ($1, $2, now())', [first.id, sunrise]);
    const refused = await api('POST', '/api/cases', {
      token: itp,
      body: caseBody({ facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, body: { patientId } }),
    });
    expect([refused.status, refused.error?.code, refused.error?.defaultMessage]).toEqual([409, 'INV.PATIENT.ALREADY.ACCEPTED', ALREADY_ACCEPTED_MESSAGE]);
    expect((await db.query('SELECT count(*)::int AS n FROM cases WHERE patient_id = $1', [patientId])).rows[0].n).toBe(1);
    expect((await search(itp, patient)).body[0].acceptedIn).toEqual({ caseId: first.id, facilityName: 'Sunrise Behavioral Health Hospital', divisionName: 'Adult Inpatient Unit' });
    // Tampa's staff learn that another facility accepted the patient, not which one.
    expect((await search(facility, patient)).body[0].acceptedIn).toEqual({ caseId: first.id, facilityName: null, divisionName: null });

    // Four months ago, from the old system: no review prompt, the old-system notice instead.
    await db.query("UPDATE cases SET created_at = now() - interval '4 months', is_from_old_system = true WHERE id = $1", [first.id]);
    const [old] = (await search(itp, patient)).body;
    expect(old).toMatchObject({ lastCaseFromOldSystem: true, recentVisits: [] });
  });
});
