/**
 * What case creation tells about a chosen patient (spec 01 §8 "Other messages", §9 "Patient seen at
 * the facility in the last 3 months triggers a review prompt"): written once, read by the API (the
 * search result, the refusal) and the creation screens.
 */

/** A patient seen at a facility within this many months gets a review prompt when a case is created there. */
export const RECENT_VISIT_MONTHS = 3;

/** A case of the patient at one source facility (GET /api/cases/search-patient recentVisits). */
export interface RecentVisit {
  facilityId: number;
  facilityName: string;
  lastSeenAt: string;
}

/** The day `months` months before `now` (the end of a shorter month is its last day). */
export function monthsBefore(now: Date, months: number): Date {
  const d = new Date(now.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * The visits that call for a review prompt: within the last RECENT_VISIT_MONTHS months, at the
 * given facility (a facility user's own, the facility an ITP user chose), or at any facility when
 * none is known yet.
 */
export function recentVisitsToReview(visits: readonly RecentVisit[] | null | undefined, facilityId: number | null | undefined, now: Date = new Date()): RecentVisit[] {
  const since = monthsBefore(now, RECENT_VISIT_MONTHS).getTime();
  return (visits ?? []).filter((v) => new Date(v.lastSeenAt).getTime() >= since && (facilityId == null || v.facilityId === facilityId));
}

export const RECENT_VISIT_MESSAGE = `This patient was seen at this facility in the last ${RECENT_VISIT_MONTHS} months. Please review the earlier case before creating a new one.`;
/** 'Patient is already accepted in the other facility' (spec 01 §8). */
export const ALREADY_ACCEPTED_MESSAGE = 'Patient is already accepted in the other facility';
/** A case from the old system (isFromOldSystem): its documents are not here (spec 01 §8). */
export const OLD_SYSTEM_CASE_MESSAGE = "This patient's last case comes from the old system: download its documents from the old system.";
/** The case page of a case from the old system (isFromOldSystem). */
export const OLD_SYSTEM_DOCUMENTS_MESSAGE = 'This case comes from the old system: download its documents from the old system.';
