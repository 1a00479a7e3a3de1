/**
 * The text of a notification: one function for the bell's list, the toast and the SMS copies
 * (spec 02 §3; 03 §8 "unknown notification type message notifications.unknown").
 */
import { ehrDeliveryLabel } from '../cases/ehr';
import { isNotificationType, type NotificationPayload, type NotificationType } from './types';

/** Shown for a type this build does not know (and for Unspecified). */
export const UNKNOWN_NOTIFICATION_TEXT = 'You have a new notification.';

/** The badge shows 99+ above this (spec 02 §9 "badge cap 99+"). */
export const NOTIFICATION_BADGE_CAP = 99;
/** Resolved notifications stay listed (and kept) this long (spec 02 §9 "resolved notifications kept 2 days"). */
export const RESOLVED_NOTIFICATION_DAYS = 2;
/** User look-ups by ids go in batches of this size (spec 02 §7, 03 §9). */
export const USER_LOOKUP_BATCH = 25;
/** The unresolved list's page size (the bell's dropdown), and the most one call returns. */
export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_PAGE_MAX = 100;

export const badgeText = (count: number) => (count > NOTIFICATION_BADGE_CAP ? `${NOTIFICATION_BADGE_CAP}+` : String(count));

const words = (s: string | null | undefined) => (s ?? '').replace(/([a-z])([A-Z])/g, '$1 $2');

function when(iso: unknown): string {
  const d = typeof iso === 'string' ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  return ` (${d.toISOString().slice(11, 16)} UTC)`;
}

const TEXTS: Record<NotificationType, (p: NotificationPayload, patient: string) => string> = {
  RequestCreated: (_p, pt) => `New request for ${pt}.`,
  PlacementOnlyRequestCreated: (_p, pt) => `New placement-only request for ${pt}.`,
  RequestUpdated: (p, pt) =>
    `The request for ${pt} was updated${p.RequestTypeUpdated ? ': its type changed' : ''}${p.RequestNoteUpdated ? `${p.RequestTypeUpdated ? ' and' : ':'} its note changed` : ''}.`,
  ProviderStartsReviewingDocuments: (_p, pt) => `The provider started reviewing the documents of ${pt}.`,
  CaseAssignedToYou: (_p, pt) => `The case of ${pt} was assigned to you.`,
  CaseReassignedToAnotherProvider: (_p, pt) => `The case of ${pt} was reassigned to another provider.`,
  RequestMarkedAsNotReadyForEvaluation: (p, pt) => `The request for ${pt} is not ready for evaluation${p.Reason ? `: ${p.Reason}` : ''}.`,
  CaseClosed: (p, pt) => `The case of ${pt} was closed${p.Reason ? `: ${p.Reason}` : ''}.`,
  RequestCanceled: (p, pt) => `The request for ${pt} was canceled${p.Reason ? `: ${p.Reason}` : ''}.`,
  CaseOnHold: (p, pt) => `The case of ${pt} is on hold${p.Reason ? `: ${p.Reason}` : ''}.`,
  CaseServices: (p, pt) => `Services are being located for ${pt}${p.MainRecommendation ? ` (${words(p.MainRecommendation)})` : ''}.`,
  RequestCompleted: (p, pt) => `The evaluation of ${pt} is complete${p.MainRecommendation ? `: ${words(p.MainRecommendation)}` : ''}.`,
  CompletedEvaluationUpdated: (p, pt) =>
    `The completed evaluation of ${pt} was updated${typeof p.FieldsCount === 'number' ? ` (${p.FieldsCount} field${p.FieldsCount === 1 ? '' : 's'})` : ''}.`,
  PatientFileUpdated: (_p, pt) => `A patient file of ${pt} was added or changed.`,
  VitalsAdded: (_p, pt) => `Vitals were added for ${pt}.`,
  CaseNoteAdded: (_p, pt) => `A case note was added for ${pt}.`,
  CaseResumed: (_p, pt) => `The case of ${pt} was resumed.`,
  CaseNoteUpdated: (_p, pt) => `A case note of ${pt} was updated.`,
  VideoCallIsAboutToStart: (_p, pt) => `The video evaluation of ${pt} is about to start.`,
  GrantedAccessSpecified: (_p, pt) => `Your division was granted access to the case of ${pt}.`,
  CaseSourceUpdated: (_p, pt) => `The source details of ${pt}'s case were updated.`,
  CaseSourceUpdatedToOldDivision: (_p, pt) => `The case of ${pt} was moved to another division.`,
  UserDoesntConfirmReceiptOfTheRobocall: (_p, pt) => `The facility did not confirm the phone call about ${pt}.`,
  UserDoesntConfirmReceiptOfTheSms: (_p, pt) => `The facility did not confirm the SMS about ${pt}.`,
  CallbackAt: (p, pt) => `Callback due for ${pt}${p.DivisionName ? ` at ${p.DivisionName}` : ''}${when(p.CallbackAt)}.`,
  EhrDeliveryFailed: (p, pt) => `The EHR did not take the ${ehrDeliveryLabel(String(p.DeliveryKind ?? ''))} of ${pt}${p.Reason ? `: ${p.Reason}` : ''}.`,
  Unspecified: () => UNKNOWN_NOTIFICATION_TEXT,
};

/** The sentence a person reads for a notification; an unknown type gets the unknown-notification message. */
export function notificationText(n: { type: string; payload?: NotificationPayload | null }): string {
  if (!isNotificationType(n.type)) return UNKNOWN_NOTIFICATION_TEXT;
  const payload = n.payload ?? {};
  const patient = typeof payload.PatientName === 'string' && payload.PatientName.trim() ? payload.PatientName.trim() : 'a patient';
  return TEXTS[n.type](payload, patient);
}
