/**
 * The one Twilio client of the platform (the `twilio` SDK), and the check of Twilio's request
 * signature on its webhooks. With TWILIO_API_BASE_URL the SDK talks to the local server that
 * speaks Twilio's API (./twilio-local, which `npm start` and `npm test` run); otherwise to Twilio.
 */
import twilio from 'twilio';
import { config } from '../config';

/** Points the real SDK at another base URL (the local Twilio). */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly base: string) {
    super();
  }
  override request<T>(opts: any) {
    opts.uri = String(opts.uri).replace(/^https:\/\/[a-z.]*twilio\.com/, this.base);
    return super.request<T>(opts);
  }
}

export interface SentByTwilio {
  sid: string;
  status: string;
}

export interface TwilioGateway {
  sendSms(to: string, body: string): Promise<SentByTwilio>;
  /** A call whose TwiML Twilio fetches from `twimlPath` (under the webhook base URL). */
  placeCall(to: string, twimlPath: string): Promise<SentByTwilio>;
}

let gateway: TwilioGateway | null | undefined;

/** The gateway, or null when no Twilio account is configured (messages then stay in the outbox). */
export function twilioGateway(): TwilioGateway | null {
  if (gateway !== undefined) return gateway;
  const { accountSid, authToken, from, apiBaseUrl, webhookBaseUrl } = config.twilio;
  if (!accountSid || !authToken || !from) return (gateway = null);
  const client = twilio(accountSid, authToken, apiBaseUrl ? { httpClient: new RebasedRequestClient(apiBaseUrl) } : {});
  gateway = {
    async sendSms(to, body) {
      const m = await client.messages.create({ to, from, body, statusCallback: `${webhookBaseUrl}/api/twilio/messages/status` });
      return { sid: m.sid, status: m.status };
    },
    async placeCall(to, twimlPath) {
      const c = await client.calls.create({
        to,
        from,
        url: `${webhookBaseUrl}${twimlPath}`,
        statusCallback: `${webhookBaseUrl}/api/twilio/calls/status`,
        statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      });
      return { sid: c.sid, status: c.status };
    },
  };
  return gateway;
}

/**
 * Whether Twilio refused the message for good (an invalid number, a blocked recipient: a 4xx other
 * than 429); anything else (5xx, 429, the network) is worth another try.
 */
export function isPermanentRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429;
}

/** Whether a webhook request carries Twilio's valid signature for the URL it was sent to. */
export function hasValidTwilioSignature(signature: string | undefined, path: string, params: Record<string, string>): boolean {
  const token = config.twilio.authToken;
  if (!token || !signature) return false;
  return twilio.validateRequest(token, signature, `${config.twilio.webhookBaseUrl}${path}`, params);
}
