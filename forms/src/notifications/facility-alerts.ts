/**
 * The case events that need the source facility's attention at once, beyond the bell: the nurse
 * caring for the patient may not be looking at a screen, so the case's contact phone is texted or
 * called by the case's notification sending method (spec 01 Case: contactPhoneNumber,
 * notificationSendingMethod SMS | PhoneCall; 03 §2 "Notification sending method: SMS, PhoneCall
 * (default PhoneCall)"), and someone must confirm. Unconfirmed after every attempt, the
 * coordinators are told (UserDoesntConfirmReceiptOfTheRobocall / …Sms) and follow up by phone.
 *
 * Only events raised by ITP or the system alert the facility: the facility does not need a call
 * about its own change.
 */
import type { NotificationSendingMethod } from '../cases/enums';
import type { NotificationPayload, NotificationType } from './types';

export interface FacilityAlertRule {
  /** What the facility must do about it: why it is worth a phone call. */
  why: string;
  /** The message read or texted; the patient is named by initials only (an SMS is not a secure channel). */
  text: (p: NotificationPayload, patientInitials: string) => string;
}

const recommendation = (s: unknown) => (typeof s === 'string' && s ? s.replace(/([a-z])([A-Z])/g, '$1 $2') : null);

export const FACILITY_ALERTS: Partial<Record<NotificationType, FacilityAlertRule>> = {
  RequestMarkedAsNotReadyForEvaluation: {
    why: 'the provider cannot evaluate until the facility supplies what is missing',
    text: (_p, pt) => `The evaluation request for patient ${pt} is not ready for evaluation. Please open the case and complete the documentation.`,
  },
  VideoCallIsAboutToStart: {
    why: 'the nurse must bring the patient to the video evaluation',
    text: (_p, pt) => `The video evaluation of patient ${pt} is about to start. Please bring the patient to the video device.`,
  },
  RequestCompleted: {
    why: 'the evaluation is done and its recommendation changes what the facility does next',
    text: (p, pt) => `The evaluation of patient ${pt} is complete${recommendation(p.MainRecommendation) ? `, recommendation: ${recommendation(p.MainRecommendation)}` : ''}. Please review it in the case.`,
  },
  CaseServices: {
    why: 'placement started: the facility keeps the patient until a receiving facility accepts',
    text: (p, pt) => `Services are being located for patient ${pt}${recommendation(p.MainRecommendation) ? ` (${recommendation(p.MainRecommendation)})` : ''}.`,
  },
  CaseOnHold: {
    why: 'the case waits on the facility or on a reason the facility must know',
    text: (p, pt) => `The case of patient ${pt} is on hold${typeof p.Reason === 'string' && p.Reason ? `: ${p.Reason}` : ''}.`,
  },
  CaseClosed: {
    why: 'the case is over: the facility decides what happens to the patient',
    text: (p, pt) => `The case of patient ${pt} was closed${typeof p.Reason === 'string' && p.Reason ? `: ${p.Reason}` : ''}.`,
  },
};

export const FACILITY_ALERT_TYPES = Object.keys(FACILITY_ALERTS) as NotificationType[];

export const needsFacilityAlert = (type: NotificationType, actorActsForFacility: boolean): boolean => !actorActsForFacility && type in FACILITY_ALERTS;

/** The key the facility presses (call) or texts back (SMS) to confirm. */
export const FACILITY_ALERT_CONFIRM_KEY = '1';

/** The message of one attempt, with how to confirm it. */
export function facilityAlertMessage(type: NotificationType, payload: NotificationPayload, patientInitials: string, method: NotificationSendingMethod): string {
  const rule = FACILITY_ALERTS[type];
  const text = rule ? rule.text(payload, patientInitials) : 'There is news about a case of your facility.';
  return method === 'SMS'
    ? `${text} Reply ${FACILITY_ALERT_CONFIRM_KEY} to confirm.`
    : `${text} Press ${FACILITY_ALERT_CONFIRM_KEY} to confirm that you received this message.`;
}

/** The coordinators' notification when no one confirmed. */
export const unconfirmedAlertType = (method: NotificationSendingMethod): NotificationType =>
  method === 'SMS' ? 'UserDoesntConfirmReceiptOfTheSms' : 'UserDoesntConfirmReceiptOfTheRobocall';

/** Initials of a name ("Jane Doe" → "J. D."), for messages that leave the platform. */
export const initials = (name: string | null | undefined): string =>
  (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `${w[0]!.toUpperCase()}.`)
    .join(' ') || 'the patient';

/** An inbound SMS that ends a staff member's SMS window (Twilio's opt-out keywords). */
export const SMS_STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
export const isStopReply = (body: string | null | undefined) => SMS_STOP_WORDS.includes((body ?? '').trim().toUpperCase());
export const isConfirmReply = (body: string | null | undefined) => (body ?? '').trim() === FACILITY_ALERT_CONFIRM_KEY;
