import { ErrorCode } from '@crisis/forms/core';
import { isCodedError } from '../data/codedError';
import { httpClient } from '../data/httpClient';

/**
 * The demo's local phone (the Twilio stand-in) as the API exposes it under /api/demo-tools/phone.
 * Public like the outbox: the page also works signed out, so no token is sent (and none renewed
 * every poll).
 */
const BASE = '/api/demo-tools/phone';

export interface PhoneMessage {
  sid: string;
  /** outbound: the platform texted a phone; inbound: a phone texted the platform. */
  direction: 'outbound' | 'inbound';
  to: string;
  /** null when sent through a messaging service. */
  from: string | null;
  body: string;
  status: string;
  createdAt: string;
}

export type CallStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'no-answer' | 'busy' | 'failed';

export interface PhoneCall {
  sid: string;
  to: string;
  from: string;
  status: CallStatus;
  createdAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  /** What the callee heard, in order. */
  spoken: string[];
  /** The key pressed, if any. */
  digits: string | null;
}

/** POST /messages/reply: the phone's SMS, how the platform's webhook answered, the platform's SMS back. */
export interface ReplyResult {
  message: PhoneMessage;
  webhookStatus: number | null;
  reply: PhoneMessage | null;
}

const get = <T>(path: string) => httpClient(`${BASE}${path}`, { anonymous: true }).then((r) => r.json as T);
const post = <T>(path: string, data: unknown = {}) =>
  httpClient(`${BASE}${path}`, { method: 'POST', body: JSON.stringify(data), anonymous: true }).then((r) => r.json as T);

export const phoneApi = {
  /** Both lists, newest first; `phone` (E.164) narrows them to what was sent to that phone. */
  list: async (phone: string | null) => {
    const q = phone ? `?phone=${encodeURIComponent(phone)}` : '';
    const [calls, messages] = await Promise.all([get<PhoneCall[]>(`/calls${q}`), get<PhoneMessage[]>(`/messages${q}`)]);
    return { calls: Array.isArray(calls) ? calls : [], messages: Array.isArray(messages) ? messages : [] };
  },
  /** Resolves once the call has played out (a few seconds). */
  answer: (sid: string, digits?: string) => post<PhoneCall>(`/calls/${encodeURIComponent(sid)}/answer`, digits ? { digits } : {}),
  decline: (sid: string) => post<PhoneCall>(`/calls/${encodeURIComponent(sid)}/decline`),
  reply: (from: string, body: string) => post<ReplyResult>('/messages/reply', { from, body }),
};

/** 404 NTFND on the lists: this deployment has no local phone (not a demo, or a real Twilio). */
export const isPhoneOff = (e: unknown) => isCodedError(e) && e.code === ErrorCode.NotFound;

/** A failure in words: the field problems when there are some (they say more than "Invalid request data"). */
export function errorText(e: unknown): string {
  if (isCodedError(e) && e.fields.length > 0) {
    if (e.fields.some((f) => f.key === 'notRinging')) return 'The call is no longer ringing.';
    return e.fields.map((f) => f.message).join('; ');
  }
  return e instanceof Error && e.message ? e.message : 'The request failed';
}
