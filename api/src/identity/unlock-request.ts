import express, { type Express, type RequestHandler } from 'express';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { OrganizationType } from '@crisis/forms';
import { config } from '../config';
import { OutboxService } from '../outbox/outbox.service';
import { AttemptLimits } from './attempt-limits';
import { escapeHtml, messagePage, UNLOCK_REQUEST_PATH } from './views';

/**
 * Unlock requests (spec 03 §3 sendUserUnlockRequeststoThisUser): a locked user asks, from the
 * sign-in page, to be unlocked; every active ITP user with the flag set gets an e-mail (outbox).
 * The answer never tells whether the address exists or is locked. One request per user per
 * REPEAT_MINUTES is sent; more are answered the same way and dropped. Each client address may
 * post only so many requests (attempt-limits.ts), whatever the e-mails.
 */
const PATH = UNLOCK_REQUEST_PATH;
const REPEAT_MINUTES = 15;
const DONE = 'If this account is locked, the administrators have been asked to unlock it. You will be able to sign in once they have.';

@Injectable()
export class UnlockRequestService implements OnModuleInit {
  static instance: UnlockRequestService | null = null;

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly outbox: OutboxService,
    readonly limits: AttemptLimits,
  ) {}

  onModuleInit() {
    UnlockRequestService.instance = this;
  }

  /** Returns how many administrators were asked (0 when the address is unknown, not locked, or asked recently). */
  async request(email: string): Promise<number> {
    const [user] = await this.sequelize.query<{ id: number; first_name: string; last_name: string; email: string }>(
      `SELECT id, first_name, last_name, email FROM users
        WHERE lower(email) = lower(:email) AND is_active AND NOT creating AND (password_locked_out OR locked_due_inactivity)`,
      { replacements: { email }, type: QueryTypes.SELECT },
    );
    if (!user) return 0;
    const recent = await this.sequelize.query(
      `SELECT 1 FROM outbox_messages WHERE purpose = 'unlock-request' AND body LIKE :marker AND created_at > now() - make_interval(mins => :mins) LIMIT 1`,
      { replacements: { marker: `%[user ${user.id}]%`, mins: REPEAT_MINUTES }, type: QueryTypes.SELECT },
    );
    if (recent.length) return 0;
    const admins = await this.sequelize.query<{ id: number; email: string }>(
      `SELECT id, email FROM users WHERE organization_type = :itp AND send_user_unlock_requests AND is_active AND NOT creating ORDER BY id`,
      { replacements: { itp: OrganizationType.ITP }, type: QueryTypes.SELECT },
    );
    const name = `${user.first_name} ${user.last_name}`;
    for (const a of admins)
      await this.outbox.send({
        channel: 'email',
        to: a.email,
        subject: `Unlock request from ${name}`,
        body: `${name} (${user.email}) is locked out and asks to be unlocked. [user ${user.id}]\n\nUnlock the account on the unlock-users page:\n${config.publicUrl}/unlock-users\n`,
        userId: a.id,
        purpose: 'unlock-request',
      });
    return admins.length;
  }
}

function formPage(email: string, error?: string): string {
  const html = `<h1>Request unlock</h1>
  <p class="lead">Your account is locked. Ask the administrators to unlock it.</p>
  ${error ? `<div class="alert error" role="alert">${escapeHtml(error)}</div>` : ''}
  <form method="post" action="${PATH}" novalidate>
    <label for="email">E-mail</label>
    <input id="email" name="email" type="email" autocomplete="username" required maxlength="255" value="${escapeHtml(email)}" autofocus>
    <button type="submit">Request unlock</button>
  </form>`;
  return messagePage('Request unlock', '').replace(/<h1>[\s\S]*?<\/p>\s*/, html + '\n  ');
}


/**
 * The routes, on the identity server's Express app, plus the "Request unlock" link added to the
 * sign-in page's locked message (the page itself is views.ts).
 */
export function registerUnlockRequests(app: Express, pageHeaders: RequestHandler): void {
  const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 });
  app.use(PATH, pageHeaders);
  app.get(PATH, (req, res) => {
    const email = typeof req.query.email === 'string' ? req.query.email.slice(0, 255) : '';
    res.status(200).type('html').send(formPage(email));
  });
  const limited: RequestHandler = (req, res, next) => {
    const service = UnlockRequestService.instance;
    if (!service) return next(new Error('UnlockRequestService not initialised'));
    const email = typeof req.body?.email === 'string' ? req.body.email.trim().slice(0, 255) : '';
    service.limits.byAddress('unlockRequestPerAddress', (r, message) => r.type('html').send(formPage(email, message)))(req, res, next);
  };
  app.post(PATH, form, limited, (req, res, next) => {
    const email = typeof req.body?.email === 'string' ? req.body.email.trim().slice(0, 255) : '';
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) return void res.status(200).type('html').send(formPage(email, 'A valid e-mail is required'));
    const service = UnlockRequestService.instance;
    if (!service) return next(new Error('UnlockRequestService not initialised'));
    service.request(email).then(
      () => res.status(200).type('html').send(messagePage('Unlock requested', DONE, { href: `${config.publicUrl}/`, text: 'Back to sign-in' })),
      next,
    );
  });
}
