/**
 * The request queues (spec 02 §2 "Queues", §5 "Queue item", §7 GET itp-queue / provider-queue):
 * which requests each queue lists, its page size, its sorts and the unread-assignment alert.
 * The API's queries and the UI's pages read these; nothing else decides them.
 */
import { objectSchema, optionalMediumText } from '../schemas/common';
import { ACTIVE_REQUEST_STATUSES, CaseStatus, type RequestStatus } from './enums';

export type RequestQueueKind = 'itp' | 'provider';

/** Spec 02 §2: ITP queue 6 rows a page, provider queue 10. */
export const REQUEST_QUEUE_PAGE_SIZE: Record<RequestQueueKind, number> = { itp: 6, provider: 10 };

/**
 * The ITP queue lists every active request of an open case: the coordinators watch a request from
 * its creation (no provider yet: the red no-provider text) until the provider completes or it is
 * cancelled. The provider queue lists the active requests assigned to him (a New request has none).
 */
export const REQUEST_QUEUE_STATUSES: Record<RequestQueueKind, readonly RequestStatus[]> = {
  itp: ACTIVE_REQUEST_STATUSES,
  provider: ['Pending', 'InProgress', 'OnHold'],
};

/**
 * The unread-assignment alert of the ITP queue: the provider was notified of the request and has
 * not opened the case yet (opening it moves the case on, and the alert goes).
 */
export const hasUnreadAssignment = (caseStatus: string): boolean => caseStatus === CaseStatus.ProviderNotified;

/** "Time elapsed" is the request's age: descending means the longest-waiting request first. */
export const REQUEST_QUEUE_SORTABLE = ['timeElapsed', 'patient', 'type', 'sourceFacility', 'provider', 'id'] as const;
export type RequestQueueSort = (typeof REQUEST_QUEUE_SORTABLE)[number];
export const REQUEST_QUEUE_DEFAULT_SORT: [RequestQueueSort, 'ASC' | 'DESC'] = ['timeElapsed', 'DESC'];

export interface RequestQueueFilter {
  /** Patient name or case reference number (#000123). */
  q?: string | null;
}
export const requestQueueFilterSchema = objectSchema('requestQueueFilter', [], { q: optionalMediumText });

/** One row of a queue (spec 02 §5 "Queue item"). */
export interface RequestQueueItem {
  /** The request's id (a row is a request). */
  id: number;
  requestId: number;
  caseId: number;
  caseStatus: string;
  caseStatusLabel: string;
  requestStatus: RequestStatus;
  type: string;
  evaluationStarted: boolean;
  note: string | null;
  createdAt: string;
  timeElapsedSeconds: number;
  unreadAssignment: boolean;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string; gender: string };
  evaluationProvider: { id: number; firstName: string; lastName: string } | null;
  sourceFacility: { id: number; name: string; city: string | null; state: string | null };
  sourceDivision: { id: number; name: string };
  rnCaringForPatient: string | null;
  contactPhoneNumber: string | null;
}
