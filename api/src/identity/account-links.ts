import { createHash } from 'crypto';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { normalizeInput, PASSWORD_RULE_TEXT, validate } from '@crisis/forms';
import { config } from '../config';
import type { AttemptLimits } from './attempt-limits';
import { hashPassword } from './password-hash';
import { escapeHtml, messagePage, PRODUCT_NAME } from './views';

/**
 * The pages of the one-time links e-mailed to users (spec 03 §5): /identity/account/set-password
 * (invitation) and /identity/account/reset-password. A form with the new password and its
 * confirmation; on success the password is stored, the e-mail counts as confirmed, the user is no
 * longer pending, the token is consumed, and the page links to the sign-in.
 */
const PAGES = { 'set-password': 'invitation', 'reset-password': 'reset-password' } as const;
type Page = keyof typeof PAGES;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_PATTERN = /^[\w-]{20,100}$/;

interface TokenRow {
  id: number;
  user_id: number;
  email: string;
}

function formPage(page: Page, token: string, error?: string | null): string {
  const title = page === 'set-password' ? 'Set your password' : 'Reset your password';
  const action = `/identity/account/${page}`;
  const html = `<h1>${escapeHtml(title)}</h1>
  <p class="lead">${escapeHtml(PASSWORD_RULE_TEXT)}.</p>
  ${error ? `<div class="alert error" role="alert">${escapeHtml(error)}</div>` : ''}
  <form method="post" action="${escapeHtml(action)}" autocomplete="off" novalidate>
    <input type="hidden" name="token" value="${escapeHtml(token)}">
    <label for="newPassword">New password</label>
    <input id="newPassword" name="newPassword" type="password" autocomplete="new-password" required maxlength="250" autofocus>
    <label for="confirmPassword">Confirm password</label>
    <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required maxlength="250">
    <button type="submit">Save password</button>
  </form>`;
  // messagePage's layout with our own content: reuse it by replacing its body.
  return messagePage(title, '').replace(/<h1>[\s\S]*?<\/p>\s*/, html + '\n  ');
}

const signInLink = () => ({ href: `${config.publicUrl}/`, text: `Sign in to ${PRODUCT_NAME}` });
const INVALID_LINK = 'This link is invalid, has expired or was already used. Ask your administrator for a new one.';

export function registerAccountLinks(app: Express, sequelize: Sequelize, pageHeaders: RequestHandler, limits: AttemptLimits): void {
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });
  app.use('/identity/account', pageHeaders);
  // Each address may show or post these pages only so often (a token is not guessable, but looking is not free).
  const limited = limits.byAddress('accountLinkPerAddress', (res, message) => {
    res.type('html').send(messagePage('Too many attempts', message, signInLink()));
  });
  for (const page of Object.keys(PAGES)) app.use(`/identity/account/${page}`, limited);

  const find = async (page: Page, token: unknown): Promise<TokenRow | null> => {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
    const [row] = await sequelize.query<TokenRow>(
      `SELECT t.id, t.user_id, u.email FROM user_account_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = :hash AND t.purpose = :purpose AND t.consumed_at IS NULL AND t.expires_at > now()`,
      { replacements: { hash: hashToken(token), purpose: PAGES[page] }, type: QueryTypes.SELECT },
    );
    return row ?? null;
  };
  const send = (res: Response, status: number, html: string) => res.status(status).type('html').send(html);

  for (const page of Object.keys(PAGES) as Page[]) {
    app.get(`/identity/account/${page}`, (req: Request, res: Response, next) => {
      find(page, req.query.token)
        .then((row) =>
          row
            ? send(res, 200, formPage(page, String(req.query.token)))
            : send(res, 400, messagePage('Link not valid', INVALID_LINK, signInLink())),
        )
        .catch(next);
    });

    app.post(`/identity/account/${page}`, form, (req: Request, res: Response, next) => {
      (async () => {
        const token = req.body?.token;
        const data = normalizeInput({ newPassword: req.body?.newPassword ?? null, confirmPassword: req.body?.confirmPassword ?? null });
        if (!(await find(page, token))) return send(res, 400, messagePage('Link not valid', INVALID_LINK, signInLink()));
        const errors = validate('setPassword', data);
        if (errors.length) {
          const first = errors.find((e) => e.key === 'passwordsDoNotMatch') ?? errors[0];
          const message = first.field === 'newPassword' && first.key !== 'required' ? PASSWORD_RULE_TEXT : first.message;
          return send(res, 400, formPage(page, String(token), message));
        }
        const hash = await hashPassword(data.newPassword as string);
        // One transaction: the token is consumed exactly once even when the form is posted twice.
        const done = await sequelize.transaction(async (transaction) => {
          const [rows] = (await sequelize.query(
            `UPDATE user_account_tokens SET consumed_at = now()
              WHERE token_hash = :hash AND purpose = :purpose AND consumed_at IS NULL AND expires_at > now()
              RETURNING user_id`,
            { replacements: { hash: hashToken(token), purpose: PAGES[page] }, transaction },
          )) as [{ user_id: number }[], unknown];
          if (!rows.length) return false;
          await sequelize.query(
            `UPDATE users SET password_hash = :hash, email_confirmed = true, creating = false, failed_login_count = 0,
                    password_locked_out = false, tokens_valid_after = now(), updated_at = now()
              WHERE id = :id`,
            { replacements: { hash, id: rows[0].user_id }, transaction },
          );
          await sequelize.query(
            `INSERT INTO audit_log (main_action, kind, user_id, email, success, method, path, status_code, body, "values")
             SELECT :action, 'Identity', u.id, u.email, true, 'POST', :path, 200, '{}'::jsonb, :values FROM users u WHERE u.id = :id`,
            {
              replacements: {
                action: page === 'set-password' ? 'User.SetPassword' : 'User.ResetPasswordByLink',
                path: `/identity/account/${page}`,
                id: rows[0].user_id,
                values: JSON.stringify({ userId: rows[0].user_id }),
              },
              transaction,
            },
          );
          return true;
        });
        if (!done) return send(res, 400, messagePage('Link not valid', INVALID_LINK, signInLink()));
        send(res, 200, messagePage('Password saved', 'Your password is set. You can now sign in.', signInLink()));
      })().catch(next);
    });
  }
}
