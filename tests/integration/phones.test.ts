import { UserType } from '@crisis/forms';
import { api } from '../support/api';
import { createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Phones (spec 03 §5): typed in US format and stored in E.164; an international number is refused
 * while the international-phones setting is off (the test stack's default), with a field error.
 */
describe('phones', () => {
  afterAll(() => db.end());

  it('stores a profile phone typed as (XXX) XXX-XXXX in E.164 and shows it back the same', async () => {
    const { accessToken } = await signInAs(UserType.ItpUser);
    const me = (await api('GET', '/api/user/context', { token: accessToken })).body.id as number;
    const profile = (await api('GET', `/api/user/profile/${me}`, { token: accessToken })).body;
    const saved = await api('PUT', `/api/user/profile/${me}`, { token: accessToken, body: { ...profile, phone: '1 (813) 555-0142' } });
    expect(saved.status).toBe(200);
    expect((await db.query('SELECT phone FROM users WHERE id = $1', [me])).rows[0].phone).toBe('+18135550142');
    const refused = await api('PUT', `/api/user/profile/${me}`, { token: accessToken, body: { ...profile, phone: '+44 20 7946 0958' } });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([expect.objectContaining({ field: 'phone', message: 'Invalid phone number' })]);
    expect((await db.query('SELECT phone FROM users WHERE id = $1', [me])).rows[0].phone).toBe('+18135550142');
  });

  it("stores a case's contact phone and the patient's phone in E.164", async () => {
    const coordinator = (await signInAs(UserType.ItpUser)).accessToken;
    const tampa = await tampaDivisions();
    const c = await createCase({
      token: coordinator,
      facilityId: tampa.facilityId,
      divisionId: tampa.floorId,
      providerId: (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id,
      patient: { phone: '813.555.0177' },
      body: { contactPhoneNumber: '(813) 555-0199' },
    });
    const row = (await db.query('SELECT c.contact_phone_number, p.phone FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1', [c.id])).rows[0];
    expect(row).toEqual({ contact_phone_number: '+18135550199', phone: '+18135550177' });
  });
});
