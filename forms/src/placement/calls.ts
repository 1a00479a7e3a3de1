/**
 * Placement call rules (spec 02 §3 enumerations, §4 "Call results and follow-up times", "Undo a
 * call", §5 "Call log"), written once for the API, the worker and the call-log screen.
 */

import { acceptsBand } from '../patients';

export const CALL_RESULTS = [
  'GrantedAccess',
  'IntakePacketToBeCompleted',
  'FaxedInformation',
  'LeftVoicemail',
  'CallBack',
  'NoAnswer',
  'WaitingToHearBack',
  'RequestedClarifyingInfo',
  'WaitingList',
  'NoBedsAvailable',
  'NoSecureBeds',
  'WillNotAccept',
  'PatientAccepted',
  'CourtesyCall',
  'Other',
] as const;
export type CallResult = (typeof CALL_RESULTS)[number];

/** Follow-up choices in minutes: 15 min … 68 h (spec 02 §3 "Follow-up times"). */
export const FOLLOW_UP_MINUTES: readonly number[] = [
  15, 30, 45, 60, 75, 90, 105,
  ...[2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 48, 68].map((h) => h * 60),
];
/** The two longest follow-ups are offered only when every selected task's division allows them. */
export const EXTENDED_FOLLOW_UP_MINUTES: readonly number[] = [48 * 60, 68 * 60];
export const MAX_FOLLOW_UP_MINUTES = 24 * 60;
export const MAX_EXTENDED_FOLLOW_UP_MINUTES = 68 * 60;

/** Default follow-up after a result, in minutes; absent = none (spec 02 §4 table). */
export const DEFAULT_FOLLOW_UP: Partial<Record<CallResult, number>> = {
  GrantedAccess: 120,
  IntakePacketToBeCompleted: 60,
  FaxedInformation: 60,
  LeftVoicemail: 60,
  WaitingToHearBack: 30,
  RequestedClarifyingInfo: 30,
  NoAnswer: 15,
  WaitingList: 240,
};
export const defaultFollowUpMinutes = (result: string): number | null => DEFAULT_FOLLOW_UP[result as CallResult] ?? null;

/** Callback-type results: the coordinator must give the callback time. */
export const CALLBACK_RESULTS: readonly CallResult[] = ['NoBedsAvailable', 'NoSecureBeds', 'CallBack'];
export const needsCallbackTime = (result: string): boolean => (CALLBACK_RESULTS as readonly string[]).includes(result);

/** Results offered by the bulk-change modal. */
export const BULK_RESULTS: readonly CallResult[] = ['GrantedAccess', 'IntakePacketToBeCompleted', 'NoBedsAvailable', 'NoSecureBeds', 'WaitingToHearBack', 'CallBack'];
/** Bulk results that hold the division for all current and future cases until the callback time. */
export const BULK_HOLD_RESULTS: readonly CallResult[] = CALLBACK_RESULTS;
export const isBulkHold = (result: string, bulk: boolean): boolean => bulk && (BULK_HOLD_RESULTS as readonly string[]).includes(result);

/** NoAnswer offers LeftVoicemail as its alternate; CourtesyCall is never an alternate. */
export const alternateResult = (result: string): CallResult | null => (result === 'NoAnswer' ? 'LeftVoicemail' : null);
export const NO_ANSWER_DEFAULT_MINUTES = 15;
export const LEFT_VOICEMAIL_DEFAULT_MINUTES = 60;

/** Results that need no "spoke with" (spec 02 §5: required unless all are NoAnswer or LeftVoicemail). */
const NO_CONVERSATION: readonly string[] = ['NoAnswer', 'LeftVoicemail'];
export const spokeWithRequired = (results: readonly string[]): boolean => !results.every((r) => NO_CONVERSATION.includes(r));

/**
 * Follow-up minutes a coordinator may pick for tasks whose divisions allow (or not) the extended
 * callback: the 48 h and 68 h options only when every selected division allows them.
 */
export const followUpOptions = (allowExtended: boolean): number[] =>
  FOLLOW_UP_MINUTES.filter((m) => allowExtended || !EXTENDED_FOLLOW_UP_MINUTES.includes(m));

/** The latest callback a call may set, from `now`. */
export const latestCallback = (now: Date, allowExtended: boolean): Date =>
  new Date(now.getTime() + (allowExtended ? MAX_EXTENDED_FOLLOW_UP_MINUTES : MAX_FOLLOW_UP_MINUTES) * 60_000);

/** The callback a result sets when the coordinator gives none (callback-type results need one). */
export function callbackFor(result: string, given: Date | null, now: Date): Date | null {
  if (given) return given;
  const minutes = defaultFollowUpMinutes(result);
  return minutes === null ? null : new Date(now.getTime() + minutes * 60_000);
}

// ---------------------------------------------------------------------------------------------
// The accept grid (spec 02 §5): male/female × adolescent/adult/geriatric.
// ---------------------------------------------------------------------------------------------

export const ACCEPT_GENDERS = ['male', 'female'] as const;
export const ACCEPT_AGES = ['adolescent', 'adult', 'geriatric'] as const;
export type AcceptGrid = Record<(typeof ACCEPT_GENDERS)[number], Record<(typeof ACCEPT_AGES)[number], boolean>>;
/** With "all ages" the bands are adolescent 0–17, adult 18–55, geriatric 56–110. */
export const ALL_AGES_BANDS = { adolescent: [0, 17], adult: [18, 55], geriatric: [56, 110] } as const;

/** Which grid cells a division allows (a cell is disabled when its age band or gender is not accepted). */
export function acceptGridEnabled(division: {
  genders?: readonly string[] | null;
  acceptedPatients?: { allAges?: boolean; adolescent?: { isActive?: boolean } | null; adult?: { isActive?: boolean } | null; geriatric?: { isActive?: boolean } | null } | null;
}): AcceptGrid {
  const genders = division.genders?.length ? division.genders.map((g) => g.toLowerCase()) : ['male', 'female'];
  const ap = division.acceptedPatients;
  const age = (band: (typeof ACCEPT_AGES)[number]) => acceptsBand(ap, band);
  const row = (g: string) => Object.fromEntries(ACCEPT_AGES.map((a) => [a, genders.includes(g) && age(a)])) as AcceptGrid['male'];
  return { male: row('male'), female: row('female') };
}

/**
 * What the call log tells of the claimed division besides its phones (spec 02 §3 "Division (as
 * used by the call log)"): the accepted ages and genders, and its flags.
 */
export function divisionFacts(d: {
  genders?: readonly string[] | null;
  acceptedPatients?: AcceptedAgesRecord;
  veteranOnly?: boolean | null;
  extendMaximumCallbackTime?: boolean | null;
  documentInEHR?: boolean | null;
  noPlacement?: boolean | null;
}): string[] {
  const facts: string[] = [];
  const ap = d.acceptedPatients;
  if (!ap || ap.allAges) facts.push('All ages');
  else
    for (const band of ACCEPT_AGES) {
      const b = ap[band];
      if (!b?.isActive) continue;
      const range = b.from != null && b.to != null ? ` ${b.from}–${b.to}` : b.from != null ? ` ${b.from}+` : b.to != null ? ` up to ${b.to}` : '';
      facts.push(`${band[0].toUpperCase()}${band.slice(1)}${range}`);
    }
  facts.push(d.genders?.length ? d.genders.join(', ') : 'Any gender');
  if (d.veteranOnly) facts.push('Veterans only');
  if (d.extendMaximumCallbackTime) facts.push('Callbacks up to 68 h');
  if (d.documentInEHR) facts.push('Documents in the EHR');
  if (d.noPlacement) facts.push('No placement');
  return facts;
}
type AcceptedAgesRecord = { allAges?: boolean; adolescent?: AgeBand; adult?: AgeBand; geriatric?: AgeBand } | null | undefined;
type AgeBand = { isActive?: boolean; from?: number | null; to?: number | null } | null | undefined;

// ---------------------------------------------------------------------------------------------
// Undo (spec 02 §4 "Undo a call")
// ---------------------------------------------------------------------------------------------

const UNDO_CASE_STATUSES = ['ServicesLocated_WaitingForConfirmation', 'LocatingServices_ContactingServiceOrganization'];

/** Undo is offered while the case is contacting or waiting for confirmation, for a call not claimed, with a result, not undone. */
export function canUndoCall(caseStatus: string, call: { result: string | null; undone: boolean; isClaimed: boolean }): boolean {
  return UNDO_CASE_STATUSES.includes(caseStatus) && !call.isClaimed && !!call.result && !call.undone;
}

/**
 * A task whose last call is WillNotAccept with no callback left is done with: the placements list
 * leaves it out unless asked to include it (spec 02 §7 includeWillNotAcceptWithEmptyCallback).
 */
export const isWillNotAcceptWithEmptyCallback = (lastResult: string | null | undefined, callbackAt: string | Date | null | undefined): boolean =>
  lastResult === 'WillNotAccept' && !callbackAt;

/** The case statuses in which calls may be logged (otherwise the case was closed or reworked). */
export const PLACEMENT_CASE_STATUSES: readonly string[] = UNDO_CASE_STATUSES;

/**
 * The out-of-state toggle of the placements card (spec 02 §2): shown for involuntary cases whose
 * source facility populates out-of-state facilities, enabled only while contacting service
 * organizations. The API refuses a change the toggle would not offer.
 */
export function outOfStateToggle(c: { status: string; isInvoluntary: boolean; populateOutOfStateFacilities: boolean }): { shown: boolean; enabled: boolean } {
  const shown = !!c.isInvoluntary && !!c.populateOutOfStateFacilities;
  return { shown, enabled: c.status === 'LocatingServices_ContactingServiceOrganization' };
}

// ---------------------------------------------------------------------------------------------
// Call-log validation (spec 02 §5 "Call log")
// ---------------------------------------------------------------------------------------------

export interface CallEntryInput {
  placementTaskId: number;
  result: string | null;
  note?: string | null;
  callbackAt?: string | null;
  spokeWith?: string | null;
  accept?: AcceptGrid | null;
}

/**
 * Problems of a submitted call log: field (rows.<i>.<name> or a top-level name) → error key.
 * `now` and `allowExtended` (per task) come from the server's clock and the divisions.
 */
export function callLogProblems(
  rows: readonly CallEntryInput[],
  opts: {
    now: Date;
    allowExtended: (taskId: number) => boolean;
    /** A bulk change: every row's result must be one the bulk modal offers. */
    bulk?: boolean;
    /** The accept-grid cells the task's division can take (a ticked cell outside them is refused). */
    acceptEnabled?: (taskId: number) => AcceptGrid | null;
  },
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!rows.length) {
    problems.calls = 'selectPatient';
    return problems;
  }
  const needSpokeWith = spokeWithRequired(rows.map((r) => r.result ?? ''));
  rows.forEach((r, i) => {
    const at = `calls.${i}.`;
    if (!r.result) problems[`${at}result`] = 'required';
    else if (opts.bulk && !(BULK_RESULTS as readonly string[]).includes(r.result)) problems[`${at}result`] = 'notBulk';
    if (needSpokeWith && !r.spokeWith?.trim()) problems[`${at}spokeWith`] = 'required';
    if (r.result && needsCallbackTime(r.result) && !r.callbackAt) problems[`${at}callbackAt`] = 'required';
    if (r.callbackAt) {
      const t = Date.parse(r.callbackAt);
      if (!Number.isFinite(t)) problems[`${at}callbackAt`] = 'format';
      else if (t <= opts.now.getTime()) problems[`${at}callbackAt`] = 'past';
      else if (t > latestCallback(opts.now, opts.allowExtended(r.placementTaskId)).getTime() + 60_000) problems[`${at}callbackAt`] = 'tooLate';
    }
    const enabled = r.accept && opts.acceptEnabled ? opts.acceptEnabled(r.placementTaskId) : null;
    if (enabled && r.accept)
      for (const g of ACCEPT_GENDERS)
        for (const a of ACCEPT_AGES) if (r.accept[g]?.[a] && !enabled[g][a]) problems[`${at}accept.${g}.${a}`] = 'notAccepted';
  });
  return problems;
}
