import { UserType } from '@crisis/forms';
import { audited } from '../support/audit';
import { tamperWithAuditLog } from '../support/audit-tamper';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The audit log is append-only (spec 03 §3) even for the application's own database connection:
 * UPDATE, DELETE and TRUNCATE are refused by the database, and the entry reads back unchanged.
 * (Each attempt runs in a transaction rolled back afterwards, so a missing guard fails the test
 * without emptying the log.)
 */
afterAll(() => db.end());

it('refuses UPDATE, DELETE and TRUNCATE of the audit log and keeps the entry as written', async () => {
  const admin = (await signInAs(UserType.ItpAdmin)).accessToken;
  const res = await audited('POST', '/api/patient-tags', { token: admin, body: { name: `Tamper ${Date.now().toString(36)}` } });
  expect(res.status).toBe(201);
  const { rows } = await db.query('SELECT id FROM audit_log WHERE correlation_id = $1', [res.cid]);
  expect(rows).toHaveLength(1);

  const attempts = await tamperWithAuditLog(rows[0].id);
  expect(attempts.map((a) => [a.what, a.refused, a.entryUnchanged, a.error?.match(/append-only/)?.[0] ?? a.error])).toEqual([
    ['UPDATE one entry', true, true, 'append-only'],
    ['UPDATE every entry', true, true, 'append-only'],
    ['DELETE one entry', true, true, 'append-only'],
    ['DELETE every entry', true, true, 'append-only'],
    ['TRUNCATE the log', true, true, 'append-only'],
  ]);
});
