/**
 * The typed Temporal client the API uses (package main). It starts, signals and queries workflows
 * by name, importing workflow *types* only, so the API never loads workflow code.
 */
import {
  ApplicationFailure,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  callbackChangesByShard,
  callbackDispatcherWorkflowId,
  callbackShardOf,
  callbacksChangedSignal,
  caseCommandUpdate,
  caseWorkflowId,
  claimStateQuery,
  claimWorkflowId,
  DEFAULT_TASK_QUEUE,
  extendClaimSignal,
  facilityAlertConfirmedSignal,
  pendingCallbackQuery,
  facilityAlertWorkflowId,
  messageWorkflowId,
  onlineMeetingChangedSignal,
  onlineMeetingWorkflowId,
  releaseClaimSignal,
  type ClaimLeaseArgs,
  type ClaimLeaseState,
  type CaseCommand,
  type CaseCommandFailureDetails,
  type CaseCommandResult,
  type CallbackChange,
  type CallbackDispatcherArgs,
  type EhrDeliveryArgs,
  type FacilityAlertArgs,
} from './definitions';
import type { callbackDispatcherWorkflow, caseLifecycleWorkflow, claimLeaseWorkflow, onlineMeetingWorkflow } from './workflows';

export * from './definitions';
export { connectionOptions, temporalEnv, type TemporalEnv } from './connection-env';

export interface StartOptions {
  /** Task queue the worker polls; defaults to TEMPORAL_TASK_QUEUE or 'crisis'. */
  taskQueue?: string;
}

const taskQueueOf = (o?: StartOptions) => o?.taskQueue ?? process.env.TEMPORAL_TASK_QUEUE ?? DEFAULT_TASK_QUEUE;

/**
 * Starts the lease workflow of a claim just committed (`claim-<id>`). Idempotent: when a workflow
 * with that id already runs it is told the expiry instead (Temporal never runs two at once).
 *
 * The id reuse policy is ALLOW_DUPLICATE, not REJECT_DUPLICATE, on purpose: claim ids restart
 * when the database is recreated or restored while Temporal keeps closed workflows for its
 * retention period, and REJECT_DUPLICATE would then leave those new claims without a guardian.
 * A closed `claim-<id>` always belongs to an earlier life of the id, so a new run is right.
 */
export async function startClaimLease(
  client: Client,
  args: ClaimLeaseArgs,
  options?: StartOptions,
): Promise<WorkflowHandle<typeof claimLeaseWorkflow>> {
  const workflowId = claimWorkflowId(args.claimId);
  try {
    return await client.workflow.start<typeof claimLeaseWorkflow>('claimLeaseWorkflow', {
      workflowId,
      taskQueue: taskQueueOf(options),
      args: [{ claimId: String(args.claimId), expiresAt: args.expiresAt }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    const handle = client.workflow.getHandle<typeof claimLeaseWorkflow>(workflowId);
    await handle.signal(extendClaimSignal, { expiresAt: args.expiresAt }).catch((e) => {
      if (!(e instanceof WorkflowNotFoundError)) throw e; // closed: the claim is already over
    });
    return handle;
  }
}

/**
 * Tells the lease workflow the claim's new expiry (already written to the claims row). Uses
 * signal-with-start, so a claim whose workflow never started (Temporal was down when it was
 * claimed) gets its guardian now.
 */
export async function extendClaimLease(
  client: Client,
  claimId: string | number,
  expiresAt: string,
  options?: StartOptions,
): Promise<void> {
  await client.workflow.signalWithStart<typeof claimLeaseWorkflow, [{ expiresAt: string }]>('claimLeaseWorkflow', {
    workflowId: claimWorkflowId(claimId),
    taskQueue: taskQueueOf(options),
    args: [{ claimId: String(claimId), expiresAt }],
    signal: extendClaimSignal,
    signalArgs: [{ expiresAt }],
    // Only reached for a claim the database still holds active, so a closed run (an earlier life
    // of the id, or one terminated by an operator) may be replaced.
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
}

/**
 * Tells the lease workflow that its claim was released (already written to the claims row), so
 * it ends now. Returns false when no workflow runs for the claim (nothing to stop).
 */
export async function releaseClaimLease(client: Client, claimId: string | number): Promise<boolean> {
  try {
    await client.workflow.getHandle(claimWorkflowId(claimId)).signal(releaseClaimSignal);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** What the lease workflow believes (diagnostics and tests); null when none runs. */
export async function queryClaimLease(client: Client, claimId: string | number): Promise<ClaimLeaseState | null> {
  try {
    return await client.workflow.getHandle(claimWorkflowId(claimId)).query(claimStateQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Case lifecycle
// ---------------------------------------------------------------------------------------------

/**
 * Runs a command on a case through its workflow and returns the case's new state: an Update on
 * the running workflow, or update-with-start when none runs (created while Temporal was down, or
 * closed long ago and now reopened), which starts one in the same call. The update id is the
 * command id, so a retried call is applied once.
 *
 * Refusals come back as WorkflowUpdateFailedError whose cause is an ApplicationFailure with the
 * coded error in `type` (see caseCommandFailure).
 */
export async function runCaseCommand(client: Client, caseId: number, command: CaseCommand, options?: StartOptions): Promise<CaseCommandResult> {
  // Most cases have a running workflow: a plain Update is one operation on the server.
  try {
    return await client.workflow
      .getHandle<typeof caseLifecycleWorkflow>(caseWorkflowId(caseId))
      .executeUpdate(caseCommandUpdate, { args: [command], updateId: command.commandId });
  } catch (err) {
    // A refusal of the workflow is the answer; anything else (no workflow, or a completed one)
    // means the case has no running workflow: start one with the command.
    if (err instanceof WorkflowUpdateFailedError) throw err;
  }
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof caseLifecycleWorkflow>('caseLifecycleWorkflow', {
    workflowId: caseWorkflowId(caseId),
    taskQueue: taskQueueOf(options),
    args: [{ caseId }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
  return client.workflow.executeUpdateWithStart(caseCommandUpdate, { args: [command], updateId: command.commandId, startWorkflowOperation });
}

/** The coded error carried by a refused case command, or null when `err` is something else. */
export function caseCommandFailure(err: unknown): { code: string; message: string; details?: CaseCommandFailureDetails } | null {
  let cause: unknown = err;
  for (let i = 0; i < 4 && cause; i++) {
    if (cause instanceof ApplicationFailure && cause.type)
      return { code: cause.type, message: cause.message, details: (cause.details?.[0] as CaseCommandFailureDetails | undefined) ?? undefined };
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Placement callbacks
// ---------------------------------------------------------------------------------------------

/**
 * Sets (or, with null, cancels) the follow-up time of a placement task in its shard's dispatcher
 * workflow: signal-with-start, so a shard whose dispatcher does not run yet gets one. The task
 * row already holds the new callback time.
 */
export async function setCallbackTimer(client: Client, taskId: number, callbackAt: string | null, options?: StartOptions): Promise<void> {
  await setCallbackTimers(client, [{ taskId, callbackAt }], options);
}

/** setCallbackTimer for many tasks at once: one signal per shard. */
export async function setCallbackTimers(client: Client, changes: CallbackChange[], options?: StartOptions): Promise<void> {
  const taskQueue = taskQueueOf(options);
  await Promise.all([...callbackChangesByShard(changes)].map(([shard, list]) => sendToShard(client, callbackDispatcherWorkflowId(shard, taskQueue), shard, taskQueue, list)));
}

/** Changes waiting for their shard's signal, per client and dispatcher id. */
const shardOutboxes = new WeakMap<Client, Map<string, Array<{ changes: CallbackChange[]; done: (err?: unknown) => void }>>>();
/** Changes one signal carries at most (a signal's payload stays small). */
const MAX_CHANGES_PER_SIGNAL = 500;

/**
 * One signal at a time per dispatcher from this process: changes made while one is on its way go
 * together in the next (in order, so a task's later change wins). Temporal takes a workflow's
 * signals one by one, so a burst of calls (a bulk save, 10,000 timers) otherwise queues there.
 */
function sendToShard(client: Client, workflowId: string, shard: number, taskQueue: string, changes: CallbackChange[]): Promise<void> {
  let outboxes = shardOutboxes.get(client);
  if (!outboxes) shardOutboxes.set(client, (outboxes = new Map()));
  const queued = outboxes.get(workflowId);
  const promise = new Promise<void>((resolve, reject) => {
    const entry = { changes, done: (err?: unknown) => (err ? reject(err) : resolve()) };
    if (queued) queued.push(entry);
    else outboxes.set(workflowId, [entry]);
  });
  if (queued) return promise; // a sender is running for this dispatcher: it takes these next

  const boxes = outboxes;
  void (async () => {
    for (;;) {
      const waiting = boxes.get(workflowId) ?? [];
      if (!waiting.length) {
        boxes.delete(workflowId);
        return;
      }
      // Whole entries only, so each caller's promise settles with the signal that carried its changes.
      let count = 0;
      let n = 0;
      while (n < waiting.length && (n === 0 || count + waiting[n].changes.length <= MAX_CHANGES_PER_SIGNAL)) count += waiting[n++].changes.length;
      const batch = waiting.splice(0, n);
      try {
        await client.workflow.signalWithStart<typeof callbackDispatcherWorkflow, [CallbackChange[]]>('callbackDispatcherWorkflow', {
          workflowId,
          taskQueue,
          args: [{ shard } satisfies CallbackDispatcherArgs],
          signal: callbacksChangedSignal,
          signalArgs: [batch.flatMap((e) => e.changes)],
          // A dispatcher that ended (terminated by an operator) is replaced; the rows hold the times.
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        });
        for (const e of batch) e.done();
      } catch (err) {
        for (const e of batch) e.done(err);
      }
    }
  })();
  return promise;
}

/** The callback time the task's dispatcher holds (not fired yet), or null (diagnostics and tests). */
export async function pendingCallback(client: Client, taskId: number, options?: StartOptions): Promise<string | null> {
  try {
    return await client.workflow.getHandle(callbackDispatcherWorkflowId(callbackShardOf(taskId), taskQueueOf(options))).query(pendingCallbackQuery, taskId);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Video meetings
// ---------------------------------------------------------------------------------------------

/**
 * Starts the timer of a meeting just created, or tells a running one that the meeting's times
 * changed (signal-with-start: a meeting whose timer never started gets one now). The meeting row
 * already holds the times.
 */
export async function touchOnlineMeetingTimer(client: Client, meetingId: number, options?: StartOptions): Promise<void> {
  await client.workflow.signalWithStart<typeof onlineMeetingWorkflow, []>('onlineMeetingWorkflow', {
    workflowId: onlineMeetingWorkflowId(meetingId),
    taskQueue: taskQueueOf(options),
    args: [{ meetingId }],
    signal: onlineMeetingChangedSignal,
    signalArgs: [],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
}

// ---------------------------------------------------------------------------------------------
// Messaging
// ---------------------------------------------------------------------------------------------

/**
 * The task queue of the messaging workflows (deliveries, facility alerts) beside the worker's
 * queue `taskQueue`: a burst of hundreds of alerts must never stand in line before a case
 * command, whose workflow tasks are on the main queue. Each worker process polls both.
 * Given the messaging queue itself, returns it unchanged (activities pass the queue they run on).
 */
export const messagingTaskQueueOf = (taskQueue: string): string => (taskQueue.endsWith('-messaging') ? taskQueue : `${taskQueue}-messaging`);

/** How to start the delivery of outbox row `messageId` (started once: the id is the row's). */
export const deliveryWorkflowStart = (messageId: string) => ({
  workflowType: 'deliverMessageWorkflow',
  workflowId: messageWorkflowId(messageId),
  args: [messageId],
});

/** How to start round `round` of EHR delivery `deliveryId` (one workflow per round: a retried claim is a new run). */
export const ehrDeliveryStart = (deliveryId: string, round: number, o: { retrySeconds: number; attempts: number }) => ({
  workflowType: 'ehrDeliveryWorkflow',
  workflowId: `ehr-delivery-${deliveryId}-${round}`,
  args: [{ deliveryId, round, retrySeconds: o.retrySeconds, attempts: o.attempts } satisfies EhrDeliveryArgs],
});

/** How to start facility alert `alertId` with the configured attempts and wait. */
export const facilityAlertStart = (alertId: string, o: { attempts: number; retrySeconds: number }) => ({
  workflowType: 'facilityAlertWorkflow',
  workflowId: facilityAlertWorkflowId(alertId),
  args: [{ alertId, attempts: o.attempts, retrySeconds: o.retrySeconds } satisfies FacilityAlertArgs],
});

/**
 * Tells a facility alert's workflow that someone confirmed (the row already says so); false when
 * the workflow is over or unknown — it reads the row at its next step anyway.
 */
export async function signalFacilityAlertConfirmed(client: Client, alertId: string, via: 'sms' | 'call'): Promise<boolean> {
  try {
    await client.workflow.getHandle(facilityAlertWorkflowId(alertId)).signal(facilityAlertConfirmedSignal, { via });
    return true;
  } catch {
    return false;
  }
}
