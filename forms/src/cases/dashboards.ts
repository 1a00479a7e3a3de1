/**
 * The dashboards per role (spec 02 §2 /dashboard, §7 GET finalized, 01 §7 GET facility/requests):
 * what each panel lists, its sorts and limits. The API's queries and the dashboard page read these.
 */
import { objectSchema, optionalMediumText } from '../schemas/common';

/**
 * Finalized cases are the source facility's "just finished" list: cases closed within these days.
 * Older ones belong to past cases; without a window the table would grow into a second past-cases page.
 */
export const FINALIZED_WINDOW_DAYS = 7;
export const FINALIZED_SORTABLE = ['closedAt', 'patient', 'status', 'totalCaseTime', 'outcome', 'id'] as const;
export type FinalizedSort = (typeof FINALIZED_SORTABLE)[number];
/** Spec 02 §9: finalized cases by closedAt descending. */
export const FINALIZED_DEFAULT_SORT: [FinalizedSort, 'ASC' | 'DESC'] = ['closedAt', 'DESC'];
export const FINALIZED_PAGE_SIZE = 10;
/** The table has no filter: an unknown key is a coded 400. */
export const finalizedFilterSchema = objectSchema('finalizedFilter', [], {});

/** One row of the finalized-cases table. */
export interface FinalizedCaseItem {
  id: number;
  status: string;
  statusLabel: string;
  createdAt: string;
  closedAt: string;
  /** Created to closed, in milliseconds (shown with durationTwoUnits). */
  totalCaseTimeMs: number;
  outcomeType: string | null;
  patient: { id: number; firstName: string; lastName: string };
  /** The signed-in user already gave feedback on this case. */
  feedbackGiven: boolean;
}

/** Spec 01 §9: facility request look-ups go in chunks of 25 case ids. */
export const FACILITY_REQUESTS_CHUNK = 25;
export interface FacilityRequestsQuery {
  caseId: number[];
  lastOnly?: boolean;
}
export const facilityRequestsQuerySchema = objectSchema('facilityRequestsQuery', ['caseId'], {
  caseId: { type: 'array', minItems: 1, maxItems: FACILITY_REQUESTS_CHUNK, items: { type: 'integer', minimum: 1 } },
  lastOnly: { type: 'boolean' },
});
export interface FacilityRequestItem {
  id: number;
  caseId: number;
  type: string;
  status: string;
  createdAt: string;
  evaluationProvider: { id: number; firstName: string; lastName: string } | null;
}

/** The ITP dashboard search box (spec 02 §5 "Dashboard search: medium text"): patient name or #000123. */
export interface CaseSearchFilter {
  q?: string | null;
}
export const caseSearchFilterSchema = objectSchema('caseSearchFilter', [], { q: optionalMediumText });
export const CASE_SEARCH_SORTABLE = ['createdAt', 'id'] as const;
export const CASE_SEARCH_DEFAULT_SORT: [(typeof CASE_SEARCH_SORTABLE)[number], 'ASC' | 'DESC'] = ['createdAt', 'DESC'];
export const CASE_SEARCH_PAGE_SIZE = 10;
export interface CaseSearchItem {
  id: number;
  status: string;
  statusLabel: string;
  createdAt: string;
  closedAt: string | null;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  sourceFacility: { id: number; name: string };
}

/** The group users' panel: its past cases closed since midnight UTC, in the last 7 and 30 days. */
export interface GroupPanel {
  group: { id: number; name: string; states: string[]; counties: string[] };
  pastCases: { today: number; last7Days: number; last30Days: number };
}

/** The provider's panel. */
export interface ProviderPanel {
  /** His active requests (REQUEST_QUEUE_STATUSES.provider). */
  queueCount: number;
  /** Evaluations he completed since midnight UTC. */
  completedToday: number;
}
