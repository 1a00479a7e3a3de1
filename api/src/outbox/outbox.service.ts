import { Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import twilio from 'twilio';
import { config } from '../config';
import { OutboxMessage, type Channel } from './outbox-message.model';

export interface OutgoingMessage {
  channel: Channel;
  to: string;
  subject?: string;
  body: string;
  userId?: number | null;
  purpose?: string;
}

/** Points the real twilio SDK at another base URL (a local server that speaks Twilio's API, in tests). */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly base: string) {
    super();
  }
  override request<T>(opts: any) {
    opts.uri = String(opts.uri).replace(/^https:\/\/[a-z.]*twilio\.com/, this.base);
    return super.request<T>(opts);
  }
}

/**
 * Sends e-mails, SMS and calls. Every message is stored in outbox_messages first; it then goes out
 * through SMTP or Twilio when they are configured, and otherwise stays in the outbox, where the
 * demo-tools page shows it (the embedded default needs no provider).
 */
@Injectable()
export class OutboxService {
  private readonly log = new Logger(OutboxService.name);
  private mailer: Transporter | null = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  private sms = config.twilio.accountSid && config.twilio.authToken
    ? twilio(config.twilio.accountSid, config.twilio.authToken, config.twilio.apiBaseUrl ? { httpClient: new RebasedRequestClient(config.twilio.apiBaseUrl) } : {})
    : null;

  async send(m: OutgoingMessage): Promise<OutboxMessage> {
    const sender = m.channel === 'email' ? config.smtpFrom : config.twilio.from;
    const row = await OutboxMessage.create({
      channel: m.channel,
      recipient: m.to,
      sender,
      subject: m.subject ?? null,
      body: m.body,
      status: 'queued',
      userId: m.userId ?? null,
      purpose: m.purpose ?? null,
    });
    try {
      if (m.channel === 'email' && this.mailer) {
        const info = await this.mailer.sendMail({ from: config.smtpFrom, to: m.to, subject: m.subject, text: m.body });
        await row.update({ status: 'sent', providerId: info.messageId ?? null });
      } else if (m.channel === 'sms' && this.sms && config.twilio.from) {
        const msg = await this.sms.messages.create({ to: m.to, from: config.twilio.from, body: m.body });
        await row.update({ status: msg.status ?? 'sent', providerId: msg.sid });
      } else if (m.channel === 'call' && this.sms && config.twilio.from) {
        const vr = new twilio.twiml.VoiceResponse();
        vr.say(m.body);
        const call = await this.sms.calls.create({ to: m.to, from: config.twilio.from, twiml: vr.toString() });
        await row.update({ status: call.status ?? 'queued', providerId: call.sid });
      }
    } catch (err) {
      // The message stays in the outbox marked failed; the caller's action is not undone.
      this.log.warn(`sending ${m.channel} to ${m.to} failed: ${(err as Error).message}`);
      await row.update({ status: 'failed' });
    }
    return row;
  }
}
