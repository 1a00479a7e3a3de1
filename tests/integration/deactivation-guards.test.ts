import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { createCase } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Spec 03 §4, §5, §8: a facility or division with open cases is not deactivated (the patients are
 * named), and a provider keeps the divisions where his requests are pending.
 */
const RUN = Date.now().toString(36).toUpperCase();
let zip = 35000 + Math.floor(Math.random() * 4000);

describe('deactivation and removal guards', () => {
  let admin: string;
  let coordinator: string;
  let facilityId: number;
  let erId: number;
  let otherErId: number;
  let providerId: number;
  let patientName: string;

  const division = async (id: number) => (await api('GET', `/api/facilities/${facilityId}/divisions/${id}`, { token: admin })).body;
  const setDivisionActive = (id: number, body: Record<string, unknown>, isActive: boolean) =>
    api('PUT', `/api/facilities/${facilityId}/divisions/${id}`, { token: admin, body: { ...body, isActive } });

  beforeAll(async () => {
    admin = (await signInAs(UserType.ItpAdmin)).accessToken;
    coordinator = (await signInAs(UserType.ItpUser)).accessToken;
    const facility = await api('POST', '/api/facilities', {
      token: admin,
      body: {
        name: `QA GUARDS ${RUN}`,
        allowReferringDivisionsAccess: false,
        allowPlacementOnlyCases: false,
        isActive: true,
        isMfaEnabled: false,
        isGeoPositionManually: true,
        address: { streetLine: '1 Guard St', city: 'Tampa', state: 'FL', zipCode: String(zip++) },
        geoPosition: { latitude: 27.95, longitude: -82.46 },
        contacts: { phone1: '(813) 555-0100' },
      },
    });
    expect(facility.status).toBe(201);
    facilityId = facility.body.id;
    const source = (name: string) => ({
      name, type: 'Source', isActive: true, contacts: { phone1: '(813) 555-0101' }, sourceType: 'ErCrisis',
      requestTypes: ['Assessment'], documentInEHR: false, noPlacement: false, outcomeRequired: true, showBillingCode: false,
    });
    erId = (await api('POST', `/api/facilities/${facilityId}/divisions`, { token: admin, body: source('ER') })).body.id;
    otherErId = (await api('POST', `/api/facilities/${facilityId}/divisions`, { token: admin, body: source('ER two') })).body.id;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    const credentialed = await api('POST', `/api/facilities/${facilityId}/credentialed-providers`, {
      token: admin,
      body: { providerId, divisionsIds: [erId, otherErId], addToNewDivisions: false, acceptedPatients: { allAges: true } },
    });
    expect(credentialed.status).toBe(201);
    const c = await createCase({ token: coordinator, facilityId, divisionId: erId, providerId });
    const p = (await db.query('SELECT p.first_name, p.last_name FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1', [c.id])).rows[0];
    patientName = `${p.first_name} ${p.last_name}`;
  });

  afterAll(() => db.end());

  it("refuses to take the provider off a division where his request is pending, naming it, and keeps his divisions", async () => {
    const path = `/api/facilities/${facilityId}/credentialed-providers/${providerId}`;
    const res = await api('PUT', path, { token: admin, body: { providerId, divisionsIds: [otherErId], addToNewDivisions: false, acceptedPatients: { allAges: true } } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: ErrorCode.RemoveProviderFromDivisionsWithPendingRequests, payload: ['ER'] });
    expect((await api('DELETE', path, { token: admin })).body).toMatchObject({ code: ErrorCode.RemoveProviderFromDivisionsWithPendingRequests, payload: ['ER'] });
    const kept = (await api('GET', path, { token: admin })).body.divisions.map((d: { id: number }) => d.id);
    expect(kept.sort()).toEqual([erId, otherErId].sort());
    // The division without a pending request may go.
    const fine = await api('PUT', path, { token: admin, body: { providerId, divisionsIds: [erId], addToNewDivisions: false, acceptedPatients: { allAges: true } } });
    expect(fine.status).toBe(200);
  });

  it('refuses to deactivate a division with an open case, naming the patient; a closed one no longer blocks', async () => {
    // Credentialed providers block first (their own code): take them off the empty division.
    const empty = await division(otherErId);
    expect((await setDivisionActive(otherErId, empty, false)).status).toBe(200);
    await db.query('DELETE FROM credentialed_provider_divisions WHERE division_id = $1', [erId]);
    const er = await division(erId);
    const refused = await setDivisionActive(erId, er, false);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: ErrorCode.DeactivateDivisionWithActiveCases, payload: [patientName] });
    expect((await db.query('SELECT is_active FROM divisions WHERE id = $1', [erId])).rows[0].is_active).toBe(true);
  });

  it('refuses to deactivate a facility with an open case even when its divisions are inactive', async () => {
    // A division made inactive before the guard existed: its open case still blocks the facility.
    await db.query('UPDATE divisions SET is_active = false WHERE facility_id = $1', [facilityId]);
    const facility = (await api('GET', `/api/facilities/${facilityId}`, { token: admin })).body;
    const refused = await api('PUT', `/api/facilities/${facilityId}`, { token: admin, body: { ...facility, isActive: false } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: ErrorCode.DeactivateFacilityWithActiveCases, payload: [patientName] });
    expect((await db.query('SELECT is_active FROM facilities WHERE id = $1', [facilityId])).rows[0].is_active).toBe(true);
  });
});
