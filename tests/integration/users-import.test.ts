import { UserType } from '@crisis/forms';
import { API_URL } from '../support/api';
import { db } from '../support/db';
import { uploadForm } from '../support/files';
import { signInAs } from '../support/oidc-client';

/**
 * User CSV import (spec 03 §5 User import, §7): the template download, validation errors naming
 * their row, 'Must be CSV file', and a clean import creating invited users with their e-mails.
 */
const RUN = Date.now().toString(36);
const upload = (path: string, token: string, content: string | Buffer, filename = 'users.csv', type = 'text/csv') =>
  uploadForm(path, token, { content, name: filename, type });

const HEADER = 'firstName,lastName,email,phone,jobTitle,organizationType,organization,userType,divisions';

let admin: string;
let itpUser: string;

beforeAll(async () => {
  admin = (await signInAs(UserType.ItpAdmin)).accessToken;
  itpUser = (await signInAs(UserType.ItpUser)).accessToken;
});
afterAll(() => db.end());

describe('user import', () => {
  it('offers the CSV template as an attachment', async () => {
    const res = await fetch(`${API_URL}/Users_Import_Template.csv`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="Users_Import_Template.csv"/);
    expect((await res.text()).split(/\r?\n/)[0]).toBe(HEADER);
  });

  it('is for user managers only', async () => {
    expect((await upload('/api/user/import/validate', itpUser, `${HEADER}\n`)).status).toBe(403);
    const anon = await fetch(`${API_URL}/Users_Import_Template.csv`);
    expect(anon.status).toBe(401);
  });

  it("refuses a file that is not CSV: 'Must be CSV file'", async () => {
    const res = await upload('/api/user/import/validate', admin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'users.png', 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.defaultMessage).toBe('Must be CSV file');
    const noFile = await fetch(API_URL + '/api/user/import/validate', { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: '{}' });
    expect(noFile.status).toBe(400);
  });

  it('names every problem with its row and imports nothing', async () => {
    const csv = [
      HEADER,
      `Ann,Ok${RUN},ann-${RUN}@import.example.org,(813) 555-0100,,Facility,Tampa Bay General Hospital,Facility_User,Behavioral Health Unit`,
      `Bob,NoMail${RUN},,(813) 555-0101,,IntegratedTelehealthPartners,,IntegratedTelehealthPartners_User,`,
      `Cy,Bad${RUN},cy-${RUN}@import.example.org,12,,Facility,Nowhere Hospital,Facility_User,`,
      `Di,Dup${RUN},ann-${RUN}@import.example.org,(813) 555-0102,,Facility,Tampa Bay General Hospital,Facility_Admin,`,
      `Ed,Taken${RUN},admin@itp.example.org,(813) 555-0103,,IntegratedTelehealthPartners,,IntegratedTelehealthPartners_Admin,`,
    ].join('\n');
    const res = await upload('/api/user/import/validate', admin, csv);
    expect(res.status).toBe(200);
    const errors: string[] = res.body;
    expect(errors).toContain('Row 3: email is required');
    expect(errors.some((e) => e.startsWith('Row 4: phone'))).toBe(true);
    expect(errors).toContain('Row 4: organization "Nowhere Hospital" was not found');
    expect(errors).toContain('Row 4: divisions is required');
    expect(errors.some((e) => e.startsWith('Row 5: email') && e.includes('row 2'))).toBe(true);
    expect(errors.some((e) => e.startsWith('Row 6: User with email admin@itp.example.org already exists'))).toBe(true);
    expect(errors.some((e) => e.startsWith('Row 2'))).toBe(false);

    const refused = await upload('/api/user/import', admin, csv);
    expect(refused.status).toBe(400);
    expect(refused.body.payload).toEqual(errors);
    const { rows } = await db.query('SELECT 1 FROM users WHERE email = $1', [`ann-${RUN}@import.example.org`]);
    expect(rows).toHaveLength(0);
  });

  it('refuses more than 100 rows', async () => {
    const lines = Array.from({ length: 101 }, (_, i) => `A,B${i},x${i}-${RUN}@import.example.org,(813) 555-0100,,IntegratedTelehealthPartners,,IntegratedTelehealthPartners_User,`);
    const res = await upload('/api/user/import/validate', admin, [HEADER, ...lines].join('\n'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.stringMatching(/at most 100/)]);
  });

  it('imports a clean file: invited users, each with an invitation e-mail', async () => {
    const emails = [`eve-${RUN}@import.example.org`, `fay-${RUN}@import.example.org`];
    const csv = [
      HEADER,
      `Eve,Clean${RUN},${emails[0]},(813) 555-0110,Nurse,Facility,tampa bay general hospital,Facility_User,Behavioral Health Unit;Medical Floor 5 West`,
      `Fay,Clean${RUN},${emails[1]},(813) 555-0111,,ITP,,IntegratedTelehealthPartners_User,`,
    ].join('\r\n');
    const check = await upload('/api/user/import/validate', admin, csv);
    expect(check).toEqual({ status: 200, body: [] });
    const res = await upload('/api/user/import', admin, csv);
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(2);
    const { rows } = await db.query(
      `SELECT u.email, u.creating, u.user_type, u.organization_type, u.send_user_unlock_requests,
              (SELECT count(*)::int FROM user_divisions ud WHERE ud.user_id = u.id) AS divisions
         FROM users u WHERE u.email = ANY($1) ORDER BY u.email`,
      [emails],
    );
    expect(rows).toEqual([
      { email: emails[0], creating: true, user_type: 'Facility_User', organization_type: 'Facility', send_user_unlock_requests: false, divisions: 2 },
      { email: emails[1], creating: true, user_type: 'IntegratedTelehealthPartners_User', organization_type: 'IntegratedTelehealthPartners', send_user_unlock_requests: true, divisions: 0 },
    ]);
    const mails = await db.query(`SELECT recipient FROM outbox_messages WHERE recipient = ANY($1) AND channel = 'email' AND purpose = 'invitation'`, [emails]);
    expect(mails.rows).toHaveLength(2);
    // Importing the same file again finds the e-mails taken.
    const again = await upload('/api/user/import/validate', admin, csv);
    expect(again.body).toHaveLength(2);
  });
});
