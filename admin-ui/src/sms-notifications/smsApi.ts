import type { SmsNotificationsStartInput } from '@crisis/forms';
import { api } from '../data/httpClient';

export interface SmsState {
  phone: string | null;
  alwaysReceive: boolean;
  receiveUntil: string | null;
  isReceiving: boolean;
}

/** POST /api/user/sms-notifications-receiving/start and /stop (spec 03 §7). */
export const smsApi = {
  start: (body: SmsNotificationsStartInput) => api.post<SmsState>('/api/user/sms-notifications-receiving/start', body),
  stop: () => api.post<SmsState>('/api/user/sms-notifications-receiving/stop', undefined),
};
