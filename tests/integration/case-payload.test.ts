import { OUTCOME_ERROR_KEY } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The case page's payload (spec 01 §3 Case: lastCase, evaluationProviders, payers, insurances,
 * tagNames, patient.referenceNumber, outcome.isActiveCase), the invalid-outcome message key
 * (spec 01 §8) and the "evaluation in progress" case note (spec 01 §4).
 */
describe('case payload, outcome key and evaluation note', () => {
  let itp: string;
  let provider: string;
  let providerId: number;
  let tampa: { facilityId: number; edId: number; floorId: number };

  beforeAll(async () => {
    itp = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    tampa = await tampaDivisions();
  });
  afterAll(() => db.end());

  async function close(c: { id: number; requestId: number }, caseOutcomeType: string) {
    await api('PUT', `/api/requests/${c.requestId}/cancel`, { token: itp, body: { reason: 'Not needed' } });
    return api('PUT', `/api/cases/${c.id}/close`, { token: itp, body: { outcomeRequired: true, caseOutcomeType } });
  }

  it('carries the fields of the case model, names an invalid outcome by its key, and notes the evaluation in progress', async () => {
    const payer = (await db.query('SELECT id, name FROM payers WHERE is_active ORDER BY id LIMIT 1')).rows[0];
    const tag = (await db.query("INSERT INTO patient_tags (name) VALUES ('Payload tag') ON CONFLICT ((lower(name))) DO UPDATE SET name = excluded.name RETURNING id")).rows[0].id;
    const first = await createCase({ token: itp, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, patient: { firstName: `Pl${uniqueLetters()}` } });
    const patientId = (await db.query('SELECT patient_id FROM cases WHERE id = $1', [first.id])).rows[0].patient_id;

    // An outcome that is not one of the list: 400 with the spec's message key, nothing changed.
    const bad = await close(first, 'Transferred_Nowhere');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([expect.objectContaining({ field: 'caseOutcomeType', key: OUTCOME_ERROR_KEY })]);
    expect((await db.query('SELECT status FROM cases WHERE id = $1', [first.id])).rows[0].status).not.toBe('Closed');
    expect((await close(first, 'LeftAMA')).status).toBe(200);

    const second = await createCase({
      token: itp,
      facilityId: tampa.facilityId,
      divisionId: tampa.floorId,
      providerId,
      body: { patientId, patient: undefined, uninsured: false, insurances: [{ payerId: payer.id, insuranceId: 'PL-1', relationToInsured: 'Spouse' }] },
    });
    expect((await api('PUT', `/api/cases/${second.id}/tags`, { token: itp, body: { tagIds: [tag] } })).status).toBe(200);

    // The provider starts the evaluation: a case note says so, once.
    expect((await api('PUT', `/api/requests/${second.requestId}/evaluation/start`, { token: provider })).status).toBe(200);
    expect((await api('PUT', `/api/requests/${second.requestId}/evaluation/start`, { token: provider })).status).toBe(200);
    const notes = await eventually(async () => {
      const r = await api('GET', `/api/cases/${second.id}/notes`, { token: itp });
      return r.body.filter((n: any) => /^Evaluation in progress/.test(n.note)).length ? r.body : null;
    }, 'the evaluation-in-progress note');
    expect(notes.filter((n: any) => /^Evaluation in progress/.test(n.note))).toHaveLength(1);

    const page = await api('GET', `/api/cases/${second.id}`, { token: itp });
    expect(page.status).toBe(200);
    expect(page.body.patient.referenceNumber).toBe(String(patientId).padStart(5, '0'));
    expect(page.body.lastCase).toMatchObject({ id: first.id, referenceNumber: `#${String(first.id).padStart(6, '0')}`, status: 'Closed', activeCase: false });
    expect(page.body.evaluationProviders).toEqual([expect.objectContaining({ id: providerId })]);
    expect(page.body.insurances.map((i: any) => i.insuranceId)).toEqual(['PL-1']);
    expect(page.body.payers).toEqual([{ id: payer.id, name: payer.name, isActive: true }]);
    expect(page.body.tagNames).toEqual(['Payload tag']);

    // The first case's outcome knows the patient has an open case again (its reopening is refused).
    const closed = await api('GET', `/api/cases/${first.id}`, { token: itp });
    expect(closed.body.outcome).toMatchObject({ type: 'LeftAMA', isActiveCase: true });
    expect(closed.body.lastCase).toBeNull();
  });
});
