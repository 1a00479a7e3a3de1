/**
 * Case lifecycle (spec 01 §4): one workflow per case, `case-<id>`, started by the first command
 * (update-with-start) or when the case is created. Deterministic code only.
 *
 * Every command is an Update. The validator refuses, without a trace in the history, what the
 * transition table already forbids for the state this workflow knows; accepted commands run one
 * at a time (a promise chain) through the applyCaseCommand activity, which re-checks everything
 * against the database row inside its transaction (the row is the truth) and writes the case, its
 * activity rows and its requests at once (local activities). The notifications that follow a change are raised by a
 * second activity, after the change is committed.
 *
 * The workflow ends when the case has been closed and quiet for a while; a later command (reopen,
 * change outcome) starts it again. Long-lived runs continue as new before the history grows large.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  patched,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
// The rule tables only (not the package index, which brings ajv into the workflow bundle).
import { CASE_STATUS_GROUPS, COMMANDS_ON_CLOSED_CASE, ErrorCode, allowedTargets, closeBlockedByRequest, type ErrorCodeName } from '@crisis/forms/rules';
import type { Activities } from '../definitions';
import {
  callbackChangedSignal,
  callbackDispatcherWorkflowId,
  callbackChangesByShard,
  callbacksChangedSignal,
  callbackWorkflowId,
  caseCommandUpdate,
  caseStateQuery,
  type CaseCommand,
  type CaseCommandResult,
  type CaseState,
} from '../definitions';

// Local activities: a command's transaction runs in the worker that runs the workflow task, with no
// extra round trip through the server (the status change is on a coordinator's critical path).
// A worker that dies mid-command has its workflow task retried elsewhere, which runs the activity
// again; the command id in case_commands makes that second run return the first one's result.
const { applyCaseCommand, loadCaseState } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  // Only transient trouble is thrown (the database restarting, a lost connection): a refusal, by
  // the rules or by the database, comes back as an outcome. Bounded, so a command can never hold
  // the case's queue for good: after about 40 s the Update fails and the next command runs.
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 8 },
});
const { raiseCaseNotifications } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
});

export interface CaseLifecycleArgs {
  caseId: number;
  /** How long a closed case's workflow waits for another command before it ends (ms). */
  closedIdleMs?: number;
}

const DEFAULT_CLOSED_IDLE_MS = 60 * 60 * 1000;
const MAX_COMMANDS_PER_RUN = 500;
const CLOSED = CASE_STATUS_GROUPS.Closed[0];

export async function caseLifecycleWorkflow(args: CaseLifecycleArgs): Promise<void> {
  const { caseId } = args;
  let state: CaseState | null = null;
  /** Commands accepted by this run, and those of them not finished yet. */
  let commands = 0;
  let pending = 0;
  let lastActivityAt = Date.now();
  let chain: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every command accepted before it (one command at a time). */
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };

  setHandler(caseStateQuery, () => state);
  setHandler(
    caseCommandUpdate,
    (command: CaseCommand): Promise<CaseCommandResult> => {
      commands++;
      pending++;
      lastActivityAt = Date.now();
      const done = () => {
        pending--;
        lastActivityAt = Date.now();
      };
      return serialized(async () => {
        const outcome = await applyCaseCommand(caseId, command).catch((err: unknown) => {
          if (err instanceof ActivityFailure)
            throw ApplicationFailure.create({ type: ErrorCode.ServiceUnavailable, message: 'The case could not be saved; try again', nonRetryable: true });
          throw err;
        });
        if (!outcome.ok) {
          if (outcome.state) state = outcome.state;
          throw ApplicationFailure.create({
            type: outcome.error.code,
            message: outcome.error.message,
            details: [{ payload: outcome.error.payload, fields: outcome.error.fields }],
            nonRetryable: true,
          });
        }
        state = outcome.result.state;
        // The case left placement (closed, reworked, on hold): its callback timers stop.
        if (outcome.result.cancelledCallbacks?.length) await stopCallbackTimers(outcome.result.cancelledCallbacks);
        const notifiedUserIds = outcome.notifications.length
          ? await raiseCaseNotifications(caseId, command.commandId, outcome.notifications)
          : [];
        return { ...outcome.result, notifiedUserIds };
      }).finally(done);
    },
    { validator: (command: CaseCommand) => precheck(state, command) },
  );

  state = await loadCaseState(caseId);

  for (;;) {
    // What a command leaves decides what comes next (a close starts the idle time): let the
    // accepted ones finish before looking at the state.
    await condition(() => pending === 0);
    const seen = commands;
    if (!state || state.status === CLOSED) {
      const idleMs = args.closedIdleMs ?? DEFAULT_CLOSED_IDLE_MS;
      const woke = await condition(() => commands !== seen, Math.max(1, idleMs - (Date.now() - lastActivityAt)));
      if (!woke) break; // closed and quiet: a later command (reopen, change outcome) starts a new run
    } else {
      await condition(() => commands !== seen || commands >= MAX_COMMANDS_PER_RUN || workflowInfo().continueAsNewSuggested);
    }
    if (commands >= MAX_COMMANDS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof caseLifecycleWorkflow>(args);
    }
  }
  await condition(allHandlersFinished);
}

/**
 * Tells the callback dispatchers that these tasks have no follow-up any more: one signal per
 * shard. A dispatcher that never ran holds nothing to stop. (A legacy per-task timer still
 * running fires anyway, and markCallbackDue finds the case out of placement.)
 */
async function stopCallbackTimers(taskIds: number[]): Promise<void> {
  if (patched('callback-dispatcher')) {
    const { taskQueue } = workflowInfo();
    await Promise.all(
      [...callbackChangesByShard(taskIds.map((taskId) => ({ taskId, callbackAt: null })))].map(([shard, changes]) =>
        getExternalWorkflowHandle(callbackDispatcherWorkflowId(shard, taskQueue))
          .signal(callbacksChangedSignal, changes)
          .catch(() => undefined),
      ),
    );
    return;
  }
  // Histories recorded before the dispatchers: one signal per task's own timer workflow.
  await Promise.all(
    taskIds.map((taskId) =>
      getExternalWorkflowHandle(callbackWorkflowId(taskId))
        .signal(callbackChangedSignal, { callbackAt: null })
        .catch(() => undefined),
    ),
  );
}

/**
 * Refuses, before the command enters the history, what the state this workflow knows already
 * forbids. Only cheap, certain refusals: the activity decides everything else against the row.
 */
function precheck(state: CaseState | null, command: CaseCommand): void {
  if (!state) return; // not loaded yet: the activity decides
  const refuse = (code: ErrorCodeName, message: string) => {
    throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
  };
  if (command.expectedStatus && command.expectedStatus !== state.status)
    refuse(ErrorCode.CaseStatusChanged, 'The case status was changed by someone else');
  const closed = state.status === CLOSED;
  switch (command.kind) {
    case 'changeStatus':
      if (closed) refuse(ErrorCode.CaseIsClosed, 'The case is closed');
      if (command.status === state.status) return; // selecting the current status does nothing
      if (!allowedTargets(state.status, { allRequestsCancelled: state.allRequestsCancelled }).includes(command.status as never))
        refuse(ErrorCode.Invalid, `The case cannot move from ${state.status} to ${command.status}`);
      return;
    case 'close':
      if (closed) refuse(ErrorCode.CaseIsClosed, 'The case is closed');
      if (closeBlockedByRequest(state.latestRequestStatus)) refuse(ErrorCode.CaseHasActiveRequest, 'The case has an active request');
      return;
    case 'reopen':
    case 'changeOutcome':
      if (!closed) refuse(ErrorCode.Invalid, 'The case is not closed');
      return;
    default:
      if (closed && !COMMANDS_ON_CLOSED_CASE.includes(command.kind)) refuse(ErrorCode.CaseIsClosed, 'The case is closed');
  }
}
