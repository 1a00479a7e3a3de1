/**
 * In-app notifications (spec 02 §3 Notification, Enumerations "Notification types"; §4
 * "Notification"): the types, and the payload each carries.
 */

/**
 * Spec 02 §3's list, plus `CallbackAt`: the follow-up time of a placement call came due (the
 * spec names it as a payload, "payload (for example CallbackAt …)"; its own type makes the text
 * and the recipient rule explicit instead of hiding it under Unspecified).
 */
export const NOTIFICATION_TYPES = [
  'RequestUpdated', 'ProviderStartsReviewingDocuments', 'CaseAssignedToYou', 'CaseReassignedToAnotherProvider',
  'RequestMarkedAsNotReadyForEvaluation', 'CaseClosed', 'RequestCanceled', 'CaseOnHold', 'CaseServices',
  'RequestCompleted', 'CompletedEvaluationUpdated', 'RequestCreated', 'PatientFileUpdated', 'VitalsAdded',
  'CaseNoteAdded', 'CaseResumed', 'CaseNoteUpdated', 'VideoCallIsAboutToStart', 'GrantedAccessSpecified',
  'CaseSourceUpdated', 'CaseSourceUpdatedToOldDivision', 'PlacementOnlyRequestCreated',
  'UserDoesntConfirmReceiptOfTheRobocall', 'UserDoesntConfirmReceiptOfTheSms', 'CallbackAt', 'EhrDeliveryFailed', 'Unspecified',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const isNotificationType = (t: unknown): t is NotificationType => (NOTIFICATION_TYPES as readonly unknown[]).includes(t);

/**
 * The payload of a notification (spec 02 §3: "payload (for example CallbackAt and FieldsCount) …
 * CaseId, PatientName, RequestTypeUpdated, RequestNoteUpdated, Reason, MainRecommendation,
 * RecommendationNote, Criteria, JoinUrl, RequestId"). Every notification of a case carries CaseId
 * and PatientName (written by the server); the rest depends on the type (NotificationPayloads).
 * The Pascal-case names are the spec's.
 */
export interface NotificationPayload {
  CaseId?: number;
  PatientName?: string;
  RequestId?: number;
  RequestTypeUpdated?: boolean;
  RequestNoteUpdated?: boolean;
  Reason?: string | null;
  MainRecommendation?: string | null;
  RecommendationNote?: string | null;
  Criteria?: string[];
  JoinUrl?: string;
  CallbackAt?: string;
  FieldsCount?: number;
  TaskId?: number;
  DivisionId?: number;
  DivisionName?: string;
  /** CaseReassignedToAnotherProvider: the provider the request was taken from. */
  PreviousProviderId?: number;
  /** CaseSourceUpdatedToOldDivision: the division the case left. */
  OldDivisionId?: number;
  /** CallbackAt: the coordinator who logged the call that set the follow-up time; an unconfirmed alert: the coordinator whose change raised it. */
  OwnerId?: number;
  /** UserDoesntConfirmReceiptOf…: the facility alert nobody confirmed. */
  AlertId?: string;
  /** EhrDeliveryFailed: what the EHR did not take (EvaluationDocument, CaseOutcome, Claim). */
  DeliveryKind?: string;
  [extra: string]: unknown;
}

/** What each type carries beyond CaseId and PatientName (the fields the server writes). */
export type NotificationPayloads = {
  RequestCreated: { RequestId: number };
  PlacementOnlyRequestCreated: { RequestId: number };
  RequestUpdated: { RequestId: number; RequestTypeUpdated: boolean; RequestNoteUpdated: boolean };
  ProviderStartsReviewingDocuments: { RequestId: number };
  CaseAssignedToYou: { RequestId: number };
  CaseReassignedToAnotherProvider: { RequestId: number; PreviousProviderId: number };
  RequestMarkedAsNotReadyForEvaluation: { RequestId: number; Reason: string };
  RequestCanceled: { RequestId: number; Reason: string };
  RequestCompleted: { RequestId: number; MainRecommendation: string | null };
  CompletedEvaluationUpdated: { RequestId: number; MainRecommendation: string | null; FieldsCount?: number };
  CaseClosed: { Reason: string | null };
  CaseOnHold: { Reason: string | null };
  CaseResumed: Record<string, never>;
  CaseServices: { MainRecommendation: string | null; Criteria: string[]; RecommendationNote: string | null };
  PatientFileUpdated: Record<string, unknown>;
  VitalsAdded: Record<string, unknown>;
  CaseNoteAdded: Record<string, unknown>;
  CaseNoteUpdated: Record<string, unknown>;
  VideoCallIsAboutToStart: { RequestId: number; JoinUrl?: string };
  GrantedAccessSpecified: { DivisionId: number };
  CaseSourceUpdated: { divisionChanged: boolean };
  CaseSourceUpdatedToOldDivision: { OldDivisionId: number };
  UserDoesntConfirmReceiptOfTheRobocall: { AlertId: string; OwnerId?: number };
  UserDoesntConfirmReceiptOfTheSms: { AlertId: string; OwnerId?: number };
  CallbackAt: { CallbackAt: string; TaskId: number; DivisionId: number; DivisionName?: string; OwnerId?: number };
  EhrDeliveryFailed: { DeliveryKind: string; Reason: string; RequestId?: number };
  Unspecified: Record<string, unknown>;
};

/** A notification as the API lists it (GET /api/user/getUserNotifications and the resolved list). */
export interface NotificationItem {
  id: number;
  type: NotificationType | string;
  caseId: number | null;
  payload: NotificationPayload;
  createdAt: string;
  isRead: boolean;
  readAt: string | null;
  readById: number | null;
  resolvedAt: string | null;
  resolvedById: number | null;
  /** The resolver's full name (the resolved list, spec 02 §4). */
  resolvedByName: string | null;
}

/** The unresolved list: a page, newest first, and how many are unresolved (counted up to the badge cap + 1). */
export interface NotificationList {
  items: NotificationItem[];
  /** Unresolved notifications, counted up to NOTIFICATION_COUNT_LIMIT (a badge shows 99+ above 99). */
  unresolvedCount: number;
  /** Keyset cursor of the next (older) page, null at the end. */
  nextCursor: string | null;
}
