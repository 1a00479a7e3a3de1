/**
 * Who gets each in-app notification: ONE table, read by the API wherever a notification is raised
 * (the case repository's fan-out, the callback timer, the messaging domain's SMS copies). The
 * actor of the change never gets his own notification, whatever the row says.
 *
 * The spec lists the types (02 §3) without naming their readers; each row below is the reading
 * of the type's meaning against the parties of a case (01 §1, 02 §1): ITP coordinators work the
 * case, the source facility's division created it, the provider evaluates it, referring
 * divisions receive the patient.
 */
import type { NotificationType } from './types';

/**
 * A group of users, resolved against the case when the notification is raised:
 * - `itp`: the ITP coordinators (active ITP admins and ITP users);
 * - `sourceDivision`: the users of the case's source division and the admins of its source facility;
 * - `oldSourceDivision`: the users of the division the case left (payload OldDivisionId);
 * - `provider`: the provider assigned to the request the notification names (payload RequestId),
 *   else to the case's newest request;
 * - `previousProvider`: the provider a request was taken from (payload PreviousProviderId);
 * - `grantedDivision`: the users of the referring division granted the case (payload DivisionId);
 * - `callbackOwner`: the coordinator who logged the call whose follow-up came due (payload
 *   OwnerId), or every coordinator when that is unknown (a bulk hold set by the system);
 * - `alertOwner`: the coordinator whose change raised the facility alert (payload OwnerId), or
 *   every coordinator when the system raised it.
 */
export const NOTIFICATION_AUDIENCES = ['itp', 'sourceDivision', 'oldSourceDivision', 'provider', 'previousProvider', 'grantedDivision', 'callbackOwner', 'alertOwner'] as const;
export type NotificationAudience = (typeof NOTIFICATION_AUDIENCES)[number];

/** Same audience whoever acts, or one per side of the case: the other side hears of a change. */
export type RecipientRule = { to: readonly NotificationAudience[] } | { fromItp: readonly NotificationAudience[]; fromFacility: readonly NotificationAudience[] };

/** ITP staff (admins, users, providers) hear of what the facility does; the facility of what ITP does. */
const OTHER_SIDE = { fromItp: ['sourceDivision', 'provider'], fromFacility: ['itp', 'provider'] } as const;

export const NOTIFICATION_RECIPIENTS: Record<NotificationType, RecipientRule & { spec: string }> = {
  // A new request waits in the ITP queue for a provider (02 §2 Queues: ITP queue, "no-provider text").
  RequestCreated: { to: ['itp'], spec: '02 §2 ITP queue' },
  // A placement-only request skips evaluation: the coordinators locate services at once (01 request types).
  PlacementOnlyRequestCreated: { to: ['itp'], spec: '02 §3 request types, PlacementOnly' },
  // Type or note edited (payload RequestTypeUpdated / RequestNoteUpdated): the other side and the provider who works it.
  RequestUpdated: { ...OTHER_SIDE, spec: '02 §3 payload RequestTypeUpdated, RequestNoteUpdated' },
  // The provider opened the request (Pending → InProgress, 01 §4): coordinators and the facility waiting on him.
  ProviderStartsReviewingDocuments: { to: ['itp', 'sourceDivision'], spec: '01 §4 provider opening a case' },
  // The provider now assigned to the request (02 §2 provider queue).
  CaseAssignedToYou: { to: ['provider'], spec: '02 §2 provider queue' },
  // The provider the request was taken from: it left his queue.
  CaseReassignedToAnotherProvider: { to: ['previousProvider'], spec: '02 §2 provider queue' },
  // Not ready for evaluation, with a reason (01 §4): whoever must supply what is missing.
  RequestMarkedAsNotReadyForEvaluation: { to: ['itp', 'sourceDivision'], spec: '01 §4 not ready for evaluation; payload Reason' },
  // Closed with an outcome: the other side and the provider.
  CaseClosed: { ...OTHER_SIDE, spec: '01 §4 close; payload Reason' },
  // Canceled with a reason: everyone the request involved (the queue, the facility, its provider).
  RequestCanceled: { to: ['itp', 'sourceDivision', 'provider'], spec: '01 §4 request cancel; payload Reason' },
  // On hold with a reason, and resumed: the other side and the provider.
  CaseOnHold: { ...OTHER_SIDE, spec: '01 §4 OnHold reasons; payload Reason' },
  CaseResumed: { ...OTHER_SIDE, spec: '01 §4 resume / reopen' },
  // Locating services with the recommendation (payload MainRecommendation, Criteria, RecommendationNote): the facility.
  CaseServices: { to: ['sourceDivision'], spec: '02 §3 payload MainRecommendation, Criteria, RecommendationNote' },
  // The evaluation is done (payload MainRecommendation): coordinators decide, the facility learns the recommendation.
  RequestCompleted: { to: ['itp', 'sourceDivision'], spec: '02 §2 evaluation complete' },
  // A completed evaluation edited with a reason (02 §2 edit mode): the same readers as its completion.
  CompletedEvaluationUpdated: { to: ['itp', 'sourceDivision'], spec: '02 §2 evaluation edit mode; payload FieldsCount' },
  // Records added to the case (01 §3 files, vitals, case notes): the other side and the provider.
  PatientFileUpdated: { ...OTHER_SIDE, spec: '01 §3 patient files' },
  VitalsAdded: { ...OTHER_SIDE, spec: '01 §3 vitals' },
  CaseNoteAdded: { ...OTHER_SIDE, spec: '01 §3 case notes' },
  CaseNoteUpdated: { ...OTHER_SIDE, spec: '01 §3 case notes' },
  // The video evaluation is about to start (payload JoinUrl): the provider and the facility that brings the patient (02 §2 video evaluation).
  VideoCallIsAboutToStart: { to: ['provider', 'sourceDivision'], spec: '02 §2 video evaluation; payload JoinUrl' },
  // A referring division was granted the case (call result GrantedAccess): its users may now open it.
  GrantedAccessSpecified: { to: ['grantedDivision'], spec: '02 §3 call result GrantedAccess' },
  // Source details changed (01 §5 source facility details): the other side and the provider.
  CaseSourceUpdated: { ...OTHER_SIDE, spec: '01 §5 source details' },
  // The case moved to another division: the division it left no longer has it.
  CaseSourceUpdatedToOldDivision: { to: ['oldSourceDivision'], spec: '01 §5 changing the division' },
  // The facility did not confirm the call / SMS about its case (facility-alerts.ts): the coordinator
  // whose change raised it follows up by phone (every coordinator for a system event).
  UserDoesntConfirmReceiptOfTheRobocall: { to: ['alertOwner'], spec: 'ARCHITECTURE: SMS or voice with confirmation and escalation' },
  UserDoesntConfirmReceiptOfTheSms: { to: ['alertOwner'], spec: 'ARCHITECTURE: SMS or voice with confirmation and escalation' },
  // A placement call's follow-up time came due (02 §4 callbacks): the coordinator who logged the call.
  CallbackAt: { to: ['callbackOwner'], spec: '02 §3 payload CallbackAt; 02 §4 follow-up times' },
  // The EHR refused an upload, outcome or claim for good (after the retries): the coordinators follow up.
  EhrDeliveryFailed: { to: ['itp'], spec: 'issue: EHR upload retried, ITP notified when it finally fails' },
  // Never raised: shown with the unknown-notification message.
  Unspecified: { to: [], spec: '03 §8 notifications.unknown' },
};

/** Whether a user type acts for ITP (admins, users, providers) rather than a facility. */
export const actsForItp = (userType: string | null | undefined) => !!userType && userType.startsWith('IntegratedTelehealthPartners');

/** The audiences of a notification of `type` raised by a change `actorUserType` made (none: a system event). */
export function recipientsOf(type: NotificationType, actorUserType?: string | null): NotificationAudience[] {
  const rule = NOTIFICATION_RECIPIENTS[type];
  if (!rule) return [];
  if ('to' in rule) return [...rule.to];
  // A system event (no actor) tells what ITP's own change would.
  return [...(actorUserType && !actsForItp(actorUserType) ? rule.fromFacility : rule.fromItp)];
}
