import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { caseBody, createCase, tampaDivisions } from '../support/cases';
import { audited, auditEntry } from '../support/audit';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Input PostgreSQL cannot hold is refused at the edge with a coded error (spec 03 §8), whatever
 * the route: a NUL character in text, bodies nested thousands of levels deep, row numbers beyond
 * a bigint. Before, these answered 500 or never answered, and a NUL in a cancel reason froze the
 * case for good.
 */
describe('input the database cannot hold', () => {
  let facility: string;
  let coordinator: string;

  beforeAll(async () => {
    facility = (await signInAs(UserType.FacilityUser)).accessToken;
    coordinator = (await signInAs(UserType.ItpUser)).accessToken;
  });

  it('refuses a NUL character in a cancel reason, and the case still takes the next command', async () => {
    const tampa = await tampaDivisions();
    const c = await createCase({ token: facility, facilityId: tampa.facilityId, divisionId: tampa.edId, providerId: null });
    const bad = await api('PUT', `/api/requests/${c.requestId}/cancel`, { token: facility, body: { reason: 'a\u0000b' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.Invalid);
    expect(bad.body.fields).toEqual([expect.objectContaining({ field: 'reason', key: 'invalidCharacter' })]);
    expect(bad.headers.get('x-correlation-id')).toBeTruthy();

    const good = await api('PUT', `/api/requests/${c.requestId}/cancel`, { token: facility, body: { reason: 'Patient left' } });
    expect(good.status).toBe(200);
    const { rows } = await db.query('SELECT status, reason FROM requests WHERE id = $1', [c.requestId]);
    expect(rows[0]).toEqual({ status: 'Canceled', reason: 'Patient left' });
  });

  it('refuses a body nested 20,000 levels deep with a coded 400', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const res = await api('POST', '/api/patient-tags', { token: coordinator, body: `{"name": ${deep}}` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.Invalid);
    expect(res.body.fields).toEqual([expect.objectContaining({ key: 'tooDeep' })]);
  });

  it('refuses a NUL character in a list search and a range beyond any row number', async () => {
    const nul = await api('GET', `/api/cases?filter=${encodeURIComponent(JSON.stringify({ q: 'a\u0000' }))}`, { token: coordinator });
    expect(nul.status).toBe(400);
    expect(nul.body.code).toBe(ErrorCode.Invalid);
    expect(nul.body.fields).toEqual([expect.objectContaining({ field: 'filter.q', key: 'invalidCharacter' })]);

    const huge = await api('GET', `/api/cases?range=${encodeURIComponent('[0, 99999999999999999999]')}`, { token: coordinator });
    expect(huge.status).toBe(400);
    expect(huge.body.code).toBe(ErrorCode.Invalid);
  });

  it('refuses an unpaired surrogate ("\\ud800") in a body at the edge, naming the field, before any guard or handler', async () => {
    // JSON text may escape half of a surrogate pair; jsonb cannot hold it. Before, the handler ran,
    // the refusal came late (without the field) and the call left no audit entry at all, even when
    // a guard had refused it: a way to call the API unrecorded.
    const tampa = await tampaDivisions();
    const c = await createCase({ token: facility, facilityId: tampa.facilityId, divisionId: tampa.edId, providerId: null });
    const cancel = await audited('PUT', `/api/requests/${c.requestId}/cancel`, { token: facility, body: '{"reason":"left \\ud800"}' });
    expect([cancel.status, cancel.body.code]).toEqual([400, ErrorCode.Invalid]);
    expect(cancel.body.fields).toEqual([expect.objectContaining({ field: 'reason', key: 'invalidCharacter' })]);
    expect((await db.query('SELECT status FROM requests WHERE id = $1', [c.requestId])).rows[0].status).toBe('New');

    // The facility user may not create tags: the body is refused before the guard is asked.
    const tag = await api('POST', '/api/patient-tags', { token: facility, body: '{"name":"\\udc00 tag"}' });
    expect([tag.status, tag.body.code, tag.body.fields?.[0]?.field]).toEqual([400, ErrorCode.Invalid, 'name']);
    const key = await api('POST', '/api/patient-tags', { token: coordinator, body: '{"name":"Tag","\\ud83d":1}' });
    expect([key.status, key.body.fields?.[0]?.key]).toEqual([400, 'invalidCharacter']);
    // A whole pair is an ordinary character (an emoji).
    const pair = await api('POST', `/api/cases/${c.id}/notes`, { token: facility, body: '{"note":"on the way \\ud83d\\ude91"}' });
    expect(pair.status).toBe(201);
  });

  it('keeps a patient\'s SSN and date of birth out of the audit log: it shows that they were given', async () => {
    const tampa = await tampaDivisions();
    const res = await audited('POST', '/api/cases', {
      token: facility,
      body: caseBody({
        facilityId: tampa.facilityId,
        divisionId: tampa.edId,
        patient: {
          firstName: 'Audit',
          lastName: 'Masked',
          dateOfBirth: '1984-05-06',
          gender: 'Female',
          ssn: '123-45-6789',
          address: { streetLine: '1 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' },
        },
      }),
    });
    expect(res.status).toBe(201);
    const entry = await auditEntry(res);
    expect(entry.body.patient).toMatchObject({ firstName: 'Audit', ssn: '***', dateOfBirth: '***' });
    expect(JSON.stringify(entry.body)).not.toContain('123-45-6789');
    expect(JSON.stringify(entry.body)).not.toContain('1984-05-06');
  });
});
