import { db } from '../support/db';
import { API_URL } from '../support/api';
import { startSignIn } from '../support/oidc-client';

/**
 * Unlock requests: a locked user follows "Request unlock" from the sign-in page's locked message
 * (shown only to whoever gave her right password); every ITP user with
 * sendUserUnlockRequeststoThisUser gets an e-mail; nothing reveals whether the address exists;
 * repeats within 15 minutes are dropped.
 */
const LOCKED = 'intake@sunrisebehavioral.example.org';

afterAll(async () => {
  await db.query('UPDATE users SET locked_due_inactivity = false, failed_login_count = 0 WHERE email = $1', [LOCKED]);
  await db.end();
});

it('links the locked message to an unlock request that e-mails the ITP users who receive them', async () => {
  const { rows: [user] } = await db.query('UPDATE users SET locked_due_inactivity = true WHERE email = $1 RETURNING id', [LOCKED]);
  // A request sent by an earlier run within the repeat window would silence this one.
  await db.query(`DELETE FROM outbox_messages WHERE purpose = 'unlock-request' AND body LIKE $1`, [`%[user ${user.id}]%`]);
  // A wrong password is not told about the lock, nor offered the request.
  const guess = await startSignIn();
  const wrong = await guess.browser.submit(guess.page, { email: LOCKED, password: 'Not-Her-Password1' });
  expect(wrong.html).toContain('Invalid email or password');
  expect(wrong.html).not.toContain('Request unlock');
  const { browser, page } = await startSignIn();
  const answer = await browser.submit(page, { email: LOCKED, password: 'Demo1234!' });
  expect(answer.html).toContain('Your account is locked');
  const href = /href="([^"]*unlock-request[^"]*)"[^>]*>Request unlock</.exec(answer.html)?.[1].replace(/&amp;/g, '&');
  expect(href).toBeTruthy();
  const form = await browser.navigate(new URL(href!, API_URL).href);
  expect(form.status).toBe(200);
  expect(form.html).toContain(`value="${LOCKED}"`);

  const { rows: receivers } = await db.query(
    `SELECT email FROM users WHERE organization_type = 'IntegratedTelehealthPartners' AND send_user_unlock_requests AND is_active AND NOT creating`,
  );
  expect(receivers.length).toBeGreaterThan(0);
  const before = (await db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_messages')).rows[0].id;
  const done = await browser.submit(form, { email: LOCKED });
  expect(done.html).toContain('administrators have been asked');
  const { rows: mails } = await db.query(`SELECT recipient, subject FROM outbox_messages WHERE id > $1 AND purpose = 'unlock-request'`, [before]);
  expect(mails.map((m) => m.recipient).sort()).toEqual(receivers.map((r) => r.email).sort());
  expect(mails[0].subject).toMatch(/^Unlock request from /);

  // Again at once, and for an unknown address: the same answer, no e-mail.
  const again = await browser.submit(form, { email: LOCKED });
  const unknown = await browser.submit(form, { email: 'nobody@nowhere.example.org' });
  expect(again.html).toContain('administrators have been asked');
  expect(unknown.html).toContain('administrators have been asked');
  const { rows: more } = await db.query(`SELECT 1 FROM outbox_messages WHERE id > $1 AND purpose = 'unlock-request'`, [before]);
  expect(more).toHaveLength(mails.length);
});
