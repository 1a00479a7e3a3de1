import { api, eventually } from '../support/api';
import { contactingCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signIn, signInAs } from '../support/oidc-client';

/**
 * Remove from accepted (spec 01 §4, §7 PUT /{id}/remove-from-accepted): the division's acceptance
 * is taken back (the case leaves that facility's accepted list and the close dialog), and the
 * case returns to contacting service organizations only when no other division still accepts.
 */
describe('remove from accepted', () => {
  let coordinator: string;
  let provider: string;
  let intake: string;
  let providerId: number;
  let sunriseAdult: number;
  let tampa: { facilityId: number; edId: number; floorId: number };

  const status = async (id: number) => (await db.query('SELECT status FROM cases WHERE id = $1', [id])).rows[0].status as string;
  const acceptedDivisions = async (caseId: number) =>
    (await db.query('SELECT division_id FROM case_referring_access WHERE case_id = $1 AND accepted_at IS NOT NULL ORDER BY division_id', [caseId])).rows.map((r) => r.division_id);

  /** Claims the division, logs "patient accepted" on the case's task for it, releases the claim. */
  async function accept(caseId: number, divisionId: number) {
    const claim = await api('POST', `/api/placement-tasks/division/${divisionId}/claim`, { token: coordinator, body: {} });
    expect(claim.status).toBe(200);
    const task = (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [caseId, divisionId])).rows[0].id;
    const saved = await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/calls`, {
      token: coordinator,
      body: { calls: [{ placementTaskId: task, result: 'PatientAccepted', spokeWith: 'Intake nurse', accept: { male: { adult: true } } }] },
    });
    expect(saved.status).toBe(200);
    await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/release`, { token: coordinator });
  }

  beforeAll(async () => {
    coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    intake = (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    sunriseAdult = (await db.query("SELECT d.id, d.facility_id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = 'Sunrise Behavioral Health Hospital' AND d.name = 'Adult Inpatient Unit'")).rows[0].id;
    tampa = await tampaDivisions();
  });
  afterAll(() => db.end());

  it('clears the division it names and goes back to contacting only when no other division accepts', async () => {
    const caseId = await contactingCase({ token: coordinator, providerToken: provider, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, patient: { lastName: 'Removal' } });
    const other = (await db.query('SELECT division_id FROM placement_tasks WHERE case_id = $1 AND division_id <> $2 ORDER BY rank LIMIT 1', [caseId, sunriseAdult])).rows[0]?.division_id as number;
    expect(other).toBeGreaterThan(0);
    await accept(caseId, sunriseAdult);
    await eventually(async () => (await status(caseId)) === 'ServicesLocated_WaitingForConfirmation', 'the case to wait for confirmation');
    await accept(caseId, other);
    expect(await acceptedDivisions(caseId)).toEqual([sunriseAdult, other].sort((a, b) => a - b));

    // Two divisions accept: which one must be said; nothing changes meanwhile.
    const unnamed = await api('PUT', `/api/cases/${caseId}/remove-from-accepted`, { token: coordinator });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.fields).toEqual([expect.objectContaining({ field: 'divisionId', key: 'required' })]);
    expect(await acceptedDivisions(caseId)).toHaveLength(2);

    // Sunrise is taken off: out of its accepted list and the close dialog; another still accepts, so the case keeps waiting.
    const removed = await api('PUT', `/api/cases/${caseId}/remove-from-accepted`, { token: coordinator, body: { divisionId: sunriseAdult } });
    expect(removed.status).toBe(200);
    expect(await acceptedDivisions(caseId)).toEqual([other]);
    expect(await status(caseId)).toBe('ServicesLocated_WaitingForConfirmation');
    const options = await api('GET', `/api/cases/${caseId}/close-options`, { token: coordinator });
    expect(options.body.accepted.map((d: any) => d.divisionId)).toEqual([other]);
    const confirm = await api('PUT', `/api/cases/${caseId}/referring/confirm`, { token: intake });
    expect([confirm.status, confirm.error?.code]).toEqual([409, 'INV.CASE.NOT.ACCEPTED']);
    expect(await status(caseId)).toBe('ServicesLocated_WaitingForConfirmation');

    // The last one (the only one: it may go unnamed): back to contacting.
    expect((await api('PUT', `/api/cases/${caseId}/remove-from-accepted`, { token: coordinator })).status).toBe(200);
    expect(await acceptedDivisions(caseId)).toEqual([]);
    await eventually(async () => (await status(caseId)) === 'LocatingServices_ContactingServiceOrganization', 'the case back to contacting');
    const none = await api('PUT', `/api/cases/${caseId}/remove-from-accepted`, { token: coordinator });
    expect([none.status, none.error?.code]).toEqual([409, 'INV.CASE.NOT.ACCEPTED']);
  });
});
