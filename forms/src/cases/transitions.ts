/**
 * The case lifecycle rules of spec 01 §4, written once: the manual transition table, what a
 * status change needs, which automatic moves requests cause, resume / undo / reopen targets.
 * The case workflow enforces them; the UI offers only what they allow.
 */
import {
  CASE_STATUS_GROUPS,
  CaseStatus,
  DEFER_RECOMMENDATION,
  caseStatusGroupOf,
  criteriaForRecommendation,
  isActiveRequestStatus,
  isOtherOutcome,
  outcomeNeedsFacility,
  type CaseStatusGroup,
  type RequestStatus,
} from './enums';
import type { RequestType } from '../enums';

type S = CaseStatus;

/** OnHold reasons a coordinator may pick by hand early in a case (all but DocumentationReview). */
const EARLY_ON_HOLD: S[] = [
  'OnHold_MissingDocumentation',
  'OnHold_WaitingForPatient',
  'OnHold_WaitingForFacility',
  'OnHold_WaitingForAssignment',
  'OnHold_Other',
];
/** The four OnHold reasons offered once a recommendation exists. */
const LATE_ON_HOLD: S[] = ['OnHold_MissingDocumentation', 'OnHold_WaitingForPatient', 'OnHold_WaitingForFacility', 'OnHold_Other'];

/** Manual transitions (spec 01 §4 "Manual transitions allowed"), one row per source status. */
export const MANUAL_TRANSITIONS: Readonly<Record<S, readonly S[]>> = (() => {
  const t = {} as Record<S, S[]>;
  for (const s of ['PendingAssignment_DocumentationReview', 'OnHold_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'RequestSentToProvider_ProviderAcknowledged'] as S[])
    t[s] = [...EARLY_ON_HOLD, 'Closed'];
  for (const s of ['OnHold_MissingDocumentation', 'OnHold_WaitingForAssignment', 'OnHold_WaitingForPatient', 'OnHold_WaitingForFacility', 'OnHold_Other'] as S[])
    t[s] = ['Closed'];
  t.RecommendationReview_WaitingOnDecision = ['LocatingServices_ContactingServiceOrganization', ...LATE_ON_HOLD, 'Closed'];
  t.LocatingServices_ContactingServiceOrganization = ['RecommendationReview_WaitingOnDecision', ...LATE_ON_HOLD, 'Closed'];
  t.ServicesLocated_WaitingForConfirmation = ['LocatingServices_ContactingServiceOrganization', ...LATE_ON_HOLD, 'Closed'];
  for (const s of CASE_STATUS_GROUPS.ProviderWorkingRequest) t[s] = ['Closed'];
  t.Closed = [];
  return t;
})();

export interface TransitionContext {
  /** Every request of the case is Canceled (a case with no request counts as all cancelled). */
  allRequestsCancelled: boolean;
}

/**
 * The statuses the selector offers from `from` (spec 01 §4): the table's targets, without
 * contacting when every request is cancelled (unless the case is already contacting).
 */
export function allowedTargets(from: string, ctx: TransitionContext): S[] {
  const targets = MANUAL_TRANSITIONS[from as S] ?? [];
  return targets.filter((t) => t !== CaseStatus.Contacting || !ctx.allRequestsCancelled || from === CaseStatus.Contacting);
}

export const isManualTransitionAllowed = (from: string, to: string, ctx: TransitionContext): boolean =>
  allowedTargets(from, ctx).includes(to as S);

export const isOnHold = (s: string | null | undefined): boolean => caseStatusGroupOf(s ?? '') === 'OnHold';
/** A note is required for OnHold targets and RecommendationReview_WaitingOnDecision. */
export const statusChangeNeedsNote = (to: string): boolean => isOnHold(to) || to === CaseStatus.WaitingOnDecision;

/** What a status-change payload must carry for its target; returns field → error key. */
export function statusChangeProblems(input: {
  status: string;
  note?: string | null;
  mainRecommendation?: string | null;
  criteria?: readonly string[] | null;
  includeOutOfStateFacilities?: boolean | null;
}): Record<string, string> {
  const problems: Record<string, string> = {};
  if (statusChangeNeedsNote(input.status) && !input.note?.trim()) problems.note = 'required';
  if (input.status === CaseStatus.Contacting) {
    if (!input.mainRecommendation) problems.mainRecommendation = 'required';
    Object.assign(problems, recommendationProblems(input, { caseStatus: input.status }));
    if (input.includeOutOfStateFacilities === null || input.includeOutOfStateFacilities === undefined)
      problems.includeOutOfStateFacilities = 'required';
  }
  return problems;
}

/** The statuses in which the case is being placed: its recommendation drives the calls. */
export const PLACING_STATUSES: readonly string[] = [CaseStatus.Contacting, CaseStatus.WaitingForConfirmation];

/**
 * A recommendation set on a case in `caseStatus`, from any screen (status change, medical
 * information, evaluation): Defer cannot stand while the case is being placed, and the criteria
 * must belong to the recommendation. Returns field → error key.
 */
export function recommendationProblems(
  input: { mainRecommendation?: string | null; criteria?: readonly string[] | null },
  { caseStatus }: { caseStatus: string },
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (input.mainRecommendation === DEFER_RECOMMENDATION && PLACING_STATUSES.includes(caseStatus))
    problems.mainRecommendation = 'deferNotAllowed';
  const allowed = criteriaForRecommendation(input.mainRecommendation);
  if ((input.criteria ?? []).some((c) => !allowed.includes(c as never))) problems.criteria = 'notAllowed';
  return problems;
}

/** Close (spec 01 §5 "Status change and close"): returns field → error key. */
export function closeProblems(input: {
  outcomeRequired: boolean;
  caseOutcomeType?: string | null;
  note?: string | null;
  referringDivisionId?: number | null;
}): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!input.outcomeRequired) return problems;
  if (!input.caseOutcomeType) problems.caseOutcomeType = 'required';
  if (outcomeNeedsFacility(input.caseOutcomeType) && !input.referringDivisionId) problems.referringDivisionId = 'required';
  if (isOtherOutcome(input.caseOutcomeType) && !input.note?.trim()) problems.note = 'required';
  return problems;
}

/** A source division that documents in the EHR and needs no outcome may close without one. */
export const mayCloseWithoutOutcome = (division: { documentInEhr?: boolean | null; outcomeRequired?: boolean | null }): boolean =>
  !!division.documentInEhr && !division.outcomeRequired;

/** Closing is blocked while the latest request is active. */
export const closeBlockedByRequest = (latestRequestStatus: string | null | undefined): boolean =>
  !!latestRequestStatus && isActiveRequestStatus(latestRequestStatus);

/**
 * The status a reopened case returns to: the one before it was closed, except that a case whose
 * provider stage ended (no active request any more) goes back to documentation review.
 */
export function statusToReopen(statusBeforeClose: string | null | undefined, hasActiveRequest: boolean): S {
  const group = caseStatusGroupOf(statusBeforeClose ?? '');
  if (!group || group === 'Closed') return CaseStatus.PendingAssignment;
  if ((group === 'RequestSentToProvider' || group === 'ProviderWorkingRequest') && !hasActiveRequest) return CaseStatus.PendingAssignment;
  return statusBeforeClose as S;
}

// ---------------------------------------------------------------------------------------------
// Automatic moves caused by requests (spec 01 §4 "Request lifecycle"; the statuses of §4).
// ---------------------------------------------------------------------------------------------

/** The ProviderWorkingRequest status while an evaluation of this type is in progress. */
export function evaluationInProgressStatus(type: RequestType): S {
  switch (type) {
    case 'Assessment':
    case 'ASAMAssessment':
      return 'ProviderWorkingRequest_AssessmentInProgress';
    case 'Reassessment':
      return 'ProviderWorkingRequest_ReassessmentInProgress';
    case 'FileReview':
      return 'ProviderWorkingRequest_FileReviewInProgress';
    case 'PhoneConsultation':
      return 'ProviderWorkingRequest_PhoneConsultationInProgress';
    case 'TelepsychUrgentCrisisEvaluation':
      return 'ProviderWorkingRequest_TelepsychUrgentCrisisEvaluationInProgress';
    case 'TelepsychPsychiatryConsult':
      return 'ProviderWorkingRequest_TelepsychPsychiatryConsultInProgress';
    case 'TelepsychiatryFollowUp':
      return 'ProviderWorkingRequest_TelepsychiatryFollowUpInProgress';
    default:
      return CaseStatus.ProviderDocumentationReview;
  }
}

/** Groups in which the case is in the provider's hands (a new request may move it there). */
export const PROVIDER_STAGE_GROUPS: readonly CaseStatusGroup[] = ['PendingAssignment', 'RequestSentToProvider', 'ProviderWorkingRequest', 'OnHold'];

/**
 * The case status after a request is created: PlacementOnly goes to recommendation review, a
 * request with a provider notifies him, one without waits for assignment in documentation review.
 * A case past the provider stage (placement under way) keeps its status.
 */
export function statusAfterRequestCreated(current: string, type: RequestType, hasProvider: boolean): S {
  const group = caseStatusGroupOf(current);
  if (group && !PROVIDER_STAGE_GROUPS.includes(group) && group !== 'RecommendationReview') return current as S;
  if (type === 'PlacementOnly') return CaseStatus.WaitingOnDecision;
  return hasProvider ? CaseStatus.ProviderNotified : CaseStatus.PendingAssignment;
}

/** Request status when created: Pending with a provider (or placement only), New without. */
export const initialRequestStatus = (type: RequestType, hasProvider: boolean): RequestStatus =>
  type === 'PlacementOnly' ? 'Completed' : hasProvider ? 'Pending' : 'New';

/** Status after the active request is cancelled: back to documentation review when the provider stage ends. */
export function statusAfterRequestCancelled(current: string): S {
  const group = caseStatusGroupOf(current);
  return group === 'RequestSentToProvider' || group === 'ProviderWorkingRequest' ? CaseStatus.PendingAssignment : (current as S);
}

/**
 * Remove from accepted (spec 01 §4): the case goes back to contacting service organizations only
 * when it was waiting for confirmation and no other division still accepts the patient.
 */
export function statusAfterRemovedFromAccepted(current: string, divisionsStillAccepting: number): S {
  return current === CaseStatus.WaitingForConfirmation && divisionsStillAccepting === 0 ? CaseStatus.Contacting : (current as S);
}

// ---------------------------------------------------------------------------------------------
// How a status is shown (spec 01 §4): facilities see group names for the provider stages.
// ---------------------------------------------------------------------------------------------

const SPECIFIC_FOR_FACILITY: readonly string[] = ['ProviderWorkingRequest_DocumentationReview', 'ProviderWorkingRequest_WaitingForFacilityToJoin'];

export function caseStatusLabel(status: string, audience: 'itp' | 'facility'): string {
  const group = caseStatusGroupOf(status);
  if (audience === 'facility') {
    if (group === 'RequestSentToProvider') return 'In Provider Queue';
    if (group === 'ProviderWorkingRequest' && !SPECIFIC_FOR_FACILITY.includes(status)) return 'Evaluation in Progress';
  }
  if (status === 'Closed') return 'Closed';
  const [g, name] = status.split('_');
  const words = (v: string) => v.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return `${words(g)}: ${words(name ?? '')}`;
}

/** The case commands a closed case still takes (everything else is INV.CASE.IS.CLOSED). */
export const COMMANDS_ON_CLOSED_CASE: readonly string[] = ['reopen', 'changeOutcome', 'removeFromAccepted', 'recordEvent', 'endOnlineMeeting'];

/** Case activity rows that are not status changes of their own: undo looks past them. */
export const ACTIVITY_KINDS_UNDO_SKIPS: readonly string[] = ['undo', 'recommendation', 'meeting', 'alert', 'ehr'];
