/**
 * Messages shared by the workflows and their callers (the API through client.ts). Workflow code
 * imports this file, so it must stay free of Node built-ins and of I/O: only
 * defineSignal / defineQuery / defineUpdate constants and plain types.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ErrorCodeName, FieldError, NotificationAudience, NotificationType } from '@crisis/forms/rules';

// ---------------------------------------------------------------------------------------------
// Claim lease (spec 03 §7 Claims): one workflow per claim, id `claim-<claimId>`.
// ---------------------------------------------------------------------------------------------

/** Input of claimLeaseWorkflow (also what continueAsNew carries over). */
export interface ClaimLeaseArgs {
  /** claims.id (bigserial, so a string). */
  claimId: string;
  /** ISO instant the claim lapses unless it is extended. */
  expiresAt: string;
}

/** How a lease workflow ended. */
export interface ClaimLeaseResult {
  claimId: string;
  /** 'released' by its holder, 'expired' by this workflow, 'gone' when the row no longer exists. */
  outcome: 'released' | 'expired' | 'gone';
}

/** What the lease workflow currently believes (for diagnostics; the claims row is the truth). */
export interface ClaimLeaseState {
  claimId: string;
  expiresAt: string;
  released: boolean;
  /** Extensions received by this run (the count restarts after continueAsNew). */
  extensions: number;
}

/** The claim was extended: it now lapses at `expiresAt` (already written to the claims row). */
export const extendClaimSignal = defineSignal<[{ expiresAt: string }]>('extendClaim');
/** The holder released the claim (already written to the claims row): the workflow ends. */
export const releaseClaimSignal = defineSignal('releaseClaim');
export const claimStateQuery = defineQuery<ClaimLeaseState>('claimState');

/** The schedule that runs sweepOverdueClaimsWorkflow every minute (one per task queue). */
export const claimsSweepScheduleId = (taskQueue: string) => `claims-sweep-${taskQueue}`;

export const CLAIM_WORKFLOW_PREFIX = 'claim-';
export const claimWorkflowId = (claimId: string | number) => `${CLAIM_WORKFLOW_PREFIX}${claimId}`;

/** The default task queue; the API and the worker both read TEMPORAL_TASK_QUEUE. */
export const DEFAULT_TASK_QUEUE = 'crisis';

// ---------------------------------------------------------------------------------------------
// Case lifecycle (spec 01 §4; ARCHITECTURE "Case lifecycle is a Temporal workflow"): one
// workflow per case, id `case-<id>`. Every change of a case's status is an Update on it.
// ---------------------------------------------------------------------------------------------

export const CASE_WORKFLOW_PREFIX = 'case-';
export const caseWorkflowId = (caseId: string | number) => `${CASE_WORKFLOW_PREFIX}${caseId}`;

/** Who asked for a command (written to the case activity and the notifications). */
export interface CaseActor {
  id: number;
  name: string;
  userType: string;
}

/**
 * A command on a case. `commandId` is unique per command (the API's correlation id): a retried
 * activity finds its own rows and applies the command once. `expectedStatus` is the status the
 * user saw: when the case moved meanwhile the command loses (INV.CASE.STATUS.CHANGED).
 */
export type CaseCommand = {
  commandId: string;
  actor: CaseActor;
  expectedStatus?: string | null;
  /** The HTTP call's audit entry: written by the handler in the transaction of the change. */
  audit?: CaseCommandAudit;
} & (
  | {
      kind: 'changeStatus';
      status: string;
      note?: string | null;
      mainRecommendation?: string | null;
      criteria?: string[] | null;
      includeOutOfStateFacilities?: boolean | null;
    }
  | { kind: 'close'; outcomeRequired: boolean; caseOutcomeType?: string | null; note?: string | null; referringDivisionId?: number | null }
  | { kind: 'changeOutcome'; caseOutcomeType?: string | null; note?: string | null; referringDivisionId?: number | null }
  | { kind: 'resume' }
  | { kind: 'undo' }
  | { kind: 'reopen' }
  | { kind: 'removeFromAccepted'; divisionId?: number | null }
  | {
      kind: 'createRequest';
      type: string;
      evaluationProviderId?: number | null;
      note?: string | null;
      facilityNote?: string | null;
      itpNote?: string | null;
    }
  | {
      kind: 'updateRequest';
      requestId: number;
      type: string;
      evaluationProviderId?: number | null;
      note?: string | null;
      facilityNote?: string | null;
      itpNote?: string | null;
    }
  | { kind: 'cancelRequest'; requestId: number; reason: string }
  | { kind: 'requestNotReady'; requestId: number; reason: string }
  | { kind: 'requestInProgress'; requestId: number }
  | { kind: 'startEvaluation'; requestId: number }
  /** `evaluationVersion`: the version the provider completed; a save since then refuses the completion (the evaluation row is completed in the command's transaction). */
  | { kind: 'completeEvaluation'; requestId: number; sourceDivisionId?: number | null; evaluationVersion?: number }
  | { kind: 'patientAccepted'; divisionId: number }
  /** Sent once after the API created the case: raises the notifications of its first request. */
  | { kind: 'announceCreated' }
  /** The recommendation edited outside a status change (medical information, evaluation). */
  | { kind: 'updateRecommendation'; mainRecommendation: string | null; criteria: string[]; note: string | null }
  /** "Add tasks": up to `count` more placement tasks for the best-fitting divisions (spec 02 §2). */
  | { kind: 'generateTasks'; count: number; notes?: string | null }
  /** A single division added to the placements by hand. */
  | { kind: 'addTask'; divisionId: number }
  /**
   * A video meeting for a request (spec 01 §4 "Video meeting"): a new room, ending the open one
   * (recreate). The room and its link are made by the API (randomness stays out of the workflow).
   */
  | { kind: 'createOnlineMeeting'; requestId: number; room: string; joinUrl: string; idleEndsAt: string; scheduledAt?: string | null }
  /** The provider (as the provider) or the source facility (for the patient) joined; the idle time starts again. */
  | { kind: 'joinOnlineMeeting'; requestId: number; as: 'provider' | 'patient'; idleEndsAt: string }
  /** The meeting's timer ends a meeting nobody joined for the idle time (only if that is still so). */
  | { kind: 'endOnlineMeeting'; meetingId: number }
  /** Something was added to or changed on the case (already committed): raises its notifications. */
  | { kind: 'recordEvent'; event: CaseEvent; payload?: Record<string, unknown> }
);

/** What the API knows of the call that sent a command (the audit entry of spec 03 §3). */
export interface CaseCommandAudit {
  mainAction: string;
  kind: string;
  user?: { id: number; firstName: string; lastName: string; email: string; role: string; organizationName?: string | null; facilityId?: number | null; divisionName?: string | null } | null;
  method?: string;
  path?: string;
  correlationId?: string;
  body?: unknown;
  values?: Record<string, unknown>;
}

/** Changes made outside the workflow whose notifications the workflow raises (spec 02 §3 types). */
export type CaseEvent =
  | 'VitalsAdded'
  | 'CompletedEvaluationUpdated'
  | 'CaseNoteAdded'
  | 'CaseNoteUpdated'
  | 'PatientFileUpdated'
  | 'CaseSourceUpdated'
  | 'CaseSourceUpdatedToOldDivision'
  | 'GrantedAccessSpecified'
  /** Raised by the meetings and the messaging domains (their recipients are the recipient table's). */
  | 'VideoCallIsAboutToStart'
  | 'UserDoesntConfirmReceiptOfTheRobocall'
  | 'UserDoesntConfirmReceiptOfTheSms';
export type CaseCommandKind = CaseCommand['kind'];

/** The workflow's view of a case (the row in `cases` is the truth). */
export interface CaseState {
  caseId: number;
  status: string;
  statusToResume: string | null;
  version: number;
  /** Every request is Canceled (or there is none): contacting is not offered. */
  allRequestsCancelled: boolean;
  /** Status of the newest request, if any. */
  latestRequestStatus: string | null;
}

/** What an Update returns: the case's state after the command, and ids it created. */
export interface CaseCommandResult {
  state: CaseState;
  requestId?: number;
  /** Placement tasks the command created. */
  taskIds?: number[];
  /** Users who got an in-app notification (the API tells them on the live channel). */
  notifiedUserIds?: number[];
  /** The video meeting the command created, joined or ended. */
  meetingId?: number;
  /**
   * Placement tasks whose callback timers stop: the case left placement (closed, reworked, put on
   * hold). The case workflow signals them; the firing step checks the case status as well.
   */
  cancelledCallbacks?: number[];
  /**
   * Callback timers to start (signal-with-start, by the API): tasks created held by a division's
   * bulk hold, and the pending follow-ups of a case that is back in placement.
   */
  callbackTimers?: Array<{ taskId: number; callbackAt: string }>;
}

/** Failure types of the case workflow's Updates are the coded errors of spec 01 §8. */
export interface CaseCommandFailureDetails {
  payload?: unknown;
  fields?: Array<{ field: string; key: string; message: string }>;
}

export const caseCommandUpdate = defineUpdate<CaseCommandResult, [CaseCommand]>('caseCommand');
export const caseStateQuery = defineQuery<CaseState | null>('caseState');

// ---------------------------------------------------------------------------------------------
// Placement callbacks (spec 02 §4; ARCHITECTURE "Callbacks"): a few long-lived dispatcher
// workflows per task queue, each holding the follow-up times of its share of the tasks.
// ---------------------------------------------------------------------------------------------

/**
 * Dispatcher workflows per task queue; a task belongs to shard `taskId % CALLBACK_DISPATCHER_SHARDS`.
 * Eight spread 10,000 pending callbacks to about 1,250 a workflow (their map rides in the
 * continue-as-new input, about 40 bytes an entry). Changing it is safe: a shard no longer used
 * still fires what it holds, and a moved task's old time is stale in the database by then.
 */
export const CALLBACK_DISPATCHER_SHARDS = 8;

export const callbackShardOf = (taskId: number) => Math.abs(Math.trunc(taskId)) % CALLBACK_DISPATCHER_SHARDS;

/** Callback changes grouped by their shard's dispatcher, in the order given (one signal per shard). */
export function callbackChangesByShard(changes: CallbackChange[]): Map<number, CallbackChange[]> {
  const byShard = new Map<number, CallbackChange[]>();
  for (const c of changes) {
    const shard = callbackShardOf(c.taskId);
    const list = byShard.get(shard);
    if (list) list.push(c);
    else byShard.set(shard, [c]);
  }
  return byShard;
}

/** The shard's dispatcher on `taskQueue` (the queue is part of the id: its workers run the activity). */
export const callbackDispatcherWorkflowId = (shard: number, taskQueue: string) => `callback-dispatcher-${taskQueue}-${shard}`;

export interface CallbackChange {
  taskId: number;
  /** ISO instant the task comes due; null = no follow-up any more. */
  callbackAt: string | null;
}

export interface CallbackDispatcherArgs {
  shard: number;
  /** Callbacks carried over from the previous run: [taskId, callbackAt]. */
  pending?: Array<[number, string]>;
  /** History length after which a run continues as new (default 2,000; tests pass a small one). */
  maxHistoryEvents?: number;
}

/** Sets, moves or (callbackAt null) cancels the callbacks of tasks of the shard. */
export const callbacksChangedSignal = defineSignal<[CallbackChange[]]>('callbacksChanged');

/** The callback time the dispatcher holds for a task, null when none (diagnostics and tests). */
export const pendingCallbackQuery = defineQuery<string | null, [number]>('pendingCallback');

/** The legacy per-task timer workflow's id (callbackTimerWorkflow; timers started before the dispatchers). */
export const callbackWorkflowId = (taskId: number | string) => `callback-${taskId}`;

export interface CallbackTimerArgs {
  taskId: number;
  /** ISO instant the task comes due; null = no follow-up (the workflow ends). */
  callbackAt: string | null;
}

/** The task's follow-up time changed (a new call, a changed result, an undo): null cancels. */
export const callbackChangedSignal = defineSignal<[{ callbackAt: string | null }]>('callbackChanged');

// ---------------------------------------------------------------------------------------------
// Video meetings (spec 01 §4, 02 §2): one timer workflow per meeting, id `online-meeting-<id>`.
// ---------------------------------------------------------------------------------------------

export const onlineMeetingWorkflowId = (meetingId: number | string) => `online-meeting-${meetingId}`;

export interface OnlineMeetingTimerArgs {
  meetingId: number;
}

/** The meeting's times changed (a join, or an operator's edit of its idle end): read them again. */
export const onlineMeetingChangedSignal = defineSignal('onlineMeetingChanged');

/** When the timer should act next, read from the online_meetings row (the truth). */
export interface OnlineMeetingTimes {
  ended: boolean;
  /** ISO instant the meeting ends unless someone joins. */
  idleEndsAt: string;
  /** ISO instant of the VideoCallIsAboutToStart reminder; null when none is due (not scheduled, or sent). */
  remindAt: string | null;
}

// ---------------------------------------------------------------------------------------------
// Activity interfaces: implemented by the API's domain folders (api/src/<domain>/*.activities.ts)
// and registered by the worker (api/src/worker.ts). Workflows know only these types.
// ---------------------------------------------------------------------------------------------

export interface CaseCommandError {
  code: ErrorCodeName;
  message: string;
  payload?: unknown;
  fields?: FieldError[];
}

/** Who is told about a change: the recipient table's audiences (forms/src/notifications/recipients.ts). */
export type Audience = NotificationAudience;
export interface CaseNotification {
  type: NotificationType;
  to: Audience[];
  /** A single user instead of (or besides) an audience. */
  userIds?: number[];
  payload?: Record<string, unknown>;
  /** The user whose change raised it: never notified of his own change. */
  actorId?: number | null;
}

export type ApplyCaseCommandOutcome =
  | { ok: true; result: CaseCommandResult; notifications: CaseNotification[] }
  | { ok: false; error: CaseCommandError; state?: CaseState };

export interface CaseActivities {
  loadCaseState(caseId: number): Promise<CaseState | null>;
  /** Applies the command in one transaction; a refusal (rule or data) is an outcome, never a retry. */
  applyCaseCommand(caseId: number, command: CaseCommand): Promise<ApplyCaseCommandOutcome>;
  /** Inserts the in-app notifications of a command; returns who got one. */
  raiseCaseNotifications(caseId: number, commandId: string, notifications: CaseNotification[]): Promise<number[]>;
}

/** What expireClaim found: the claim is over, or it was extended and now lapses at `expiresAt`. */
export type ExpireClaimResult =
  | { released: true; outcome: 'expired' | 'released' | 'gone' }
  | { released: false; expiresAt: string };

export interface ClaimActivities {
  expireClaim(claimId: string): Promise<ExpireClaimResult>;
  sweepOverdueClaims(graceSeconds: number): Promise<number>;
}

export interface MarkCallbacksResult {
  fired: number;
  moved: Array<{ taskId: number; callbackAt: string }>;
}

export interface PlacementActivities {
  /** Makes the task due if it still has this callback time; false when the task moved on. */
  markCallbackDue(taskId: number, callbackAt: string): Promise<boolean>;
  /**
   * markCallbackDue for each callback (a transaction each, a few at a time): how many came due, and
   * the tasks that did not because their row holds another callback time now (a change whose
   * signal was overtaken by an older one): the dispatcher holds those times instead.
   */
  markCallbacksDue(callbacks: Array<{ taskId: number; callbackAt: string }>): Promise<MarkCallbacksResult>;
  sweepDueCallbacks(graceSeconds: number): Promise<number>;
}

export interface UserMaintenanceActivities {
  /** Ends the SMS-notification windows that are over; returns the users changed. */
  expireSmsWindows(): Promise<number[]>;
  /** Locks users inactive for `days`; returns the users locked. */
  lockInactiveUsers(days: number): Promise<number[]>;
}

export interface OnlineMeetingActivities {
  /** The meeting's idle end and reminder time; ended: true when it is over or gone. */
  onlineMeetingTimes(meetingId: number): Promise<OnlineMeetingTimes>;
  /** Raises the VideoCallIsAboutToStart notification once; false when already sent or ended. */
  remindOnlineMeeting(meetingId: number): Promise<boolean>;
  /** Ends the meeting through its case's workflow if it is still idle past its end; true when it is over. */
  endIdleOnlineMeeting(meetingId: number): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Messaging: what leaves the platform (e-mail, SMS, voice). Each outbox row is delivered by its
// own workflow, `message-<id>`; each facility alert by `facility-alert-<id>`. Both are started
// when their row commits (a NOTIFY the worker listens to) and by the sweep schedule for any the
// listener missed; the workflow id makes a second start a no-op.
// ---------------------------------------------------------------------------------------------

export const messageWorkflowId = (messageId: string | number) => `message-${messageId}`;
export const facilityAlertWorkflowId = (alertId: string | number) => `facility-alert-${alertId}`;

/** How one delivery ended: sent by a provider, kept in the outbox (no provider), or refused for good. */
export type DeliveryOutcome = 'sent' | 'outbox' | 'failed' | 'gone';

/** Attempts and the wait for a confirmation after each (FACILITY_ALERT_ATTEMPTS, FACILITY_ALERT_RETRY_SECONDS). */
export interface FacilityAlertArgs {
  alertId: string;
  attempts: number;
  retrySeconds: number;
}

/** Someone confirmed the alert (already written to the facility_alerts row by the webhook). */
export const facilityAlertConfirmedSignal = defineSignal<[{ via: 'sms' | 'call' }]>('facilityAlertConfirmed');

export interface MessagingActivities {
  /** Sends outbox row `messageId` once (a retry after success sends nothing); throws to be retried on a transient failure. */
  deliverMessage(messageId: string): Promise<DeliveryOutcome>;
  /** Sends attempt `attempt` of an alert (idempotent per attempt); 'confirmed' / 'escalated' when it is already over. */
  sendFacilityAlertAttempt(alertId: string, attempt: number): Promise<'sent' | 'confirmed' | 'escalated' | 'gone'>;
  /** Whether the alert was confirmed meanwhile (the row is the truth; the signal only wakes the workflow). */
  facilityAlertConfirmed(alertId: string): Promise<boolean>;
  /** Writes the confirmation to the case activity once. */
  recordFacilityAlertConfirmed(alertId: string): Promise<void>;
  /** Nobody confirmed: marks the alert escalated and tells the coordinators, once. */
  escalateFacilityAlert(alertId: string): Promise<boolean>;
  /** Starts the workflows of rows whose delivery never started (the listener was down); returns how many. */
  sweepMessaging(graceSeconds: number): Promise<number>;
}

/** What an EHR delivery came to: filed (or already filed), or refused for good. */
export type EhrDeliveryOutcome = 'delivered' | 'failed' | 'gone';

export interface EhrDeliveryArgs {
  deliveryId: string;
  /** The retry round this run drives (a failed claim retried by an ITP admin starts the next one). */
  round: number;
  /** First retry wait in seconds (doubling, at most 10 minutes between tries). */
  retrySeconds: number;
  /** Tries before the delivery is failed and the coordinators are told. */
  attempts: number;
}

export interface EhrActivities {
  /**
   * Sends ehr_deliveries row `deliveryId` to the EHR once (conditional create: a retry after a
   * lost answer files nothing twice). Throws retryable while the EHR is unavailable, non-retryable
   * (type EhrRejected) when it refuses the resource or the connection is wrong.
   */
  deliverToEhr(deliveryId: string, round: number): Promise<EhrDeliveryOutcome>;
  /** The delivery failed for good: marks the row, writes the case activity line, tells the coordinators. */
  recordEhrDeliveryFailed(deliveryId: string, round: number, reason: string): Promise<void>;
}

/** Every activity of the task queue. */
export type Activities = CaseActivities & ClaimActivities & PlacementActivities & UserMaintenanceActivities & OnlineMeetingActivities & MessagingActivities & EhrActivities;
