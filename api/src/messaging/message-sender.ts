/**
 * Sends one outbox row through its provider: SMTP for e-mail, Twilio for SMS and calls. Without a
 * provider the row stays in the outbox (the demo tools show it). Run only by the delivery
 * activity, never inside an HTTP request.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '../config';
import { twilioGateway } from './twilio-gateway';

export interface OutboxRow {
  id: string;
  channel: 'email' | 'sms' | 'call';
  recipient: string;
  subject: string | null;
  body: string;
}

let mailer: Transporter | null | undefined;

/** The provider's id and status of the sent message, or null when no provider is configured. */
export async function sendThroughProvider(row: OutboxRow): Promise<{ providerId: string | null; status: string } | null> {
  if (row.channel === 'email') {
    mailer ??= config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
    if (!mailer) return null;
    const info = await mailer.sendMail({ from: config.smtpFrom, to: row.recipient, subject: row.subject ?? undefined, text: row.body });
    return { providerId: info.messageId ?? null, status: 'sent' };
  }
  const twilio = twilioGateway();
  if (!twilio) return null;
  const sent = row.channel === 'sms' ? await twilio.sendSms(row.recipient, row.body) : await twilio.placeCall(row.recipient, `/api/twilio/voice/messages/${row.id}`);
  return { providerId: sent.sid, status: sent.status };
}
