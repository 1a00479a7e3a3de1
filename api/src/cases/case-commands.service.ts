import { Injectable, Logger } from '@nestjs/common';
import { CodedError, ErrorCode, fail, isErrorCode, type UserContext } from '@crisis/forms';
import { caseCommandFailure, runCaseCommand, setCallbackTimers, type CaseCommand, type CaseCommandResult } from '@crisis/workflows';
import { auditValues, requestContext } from '../common/request-context';
import { TemporalClientService } from '../temporal/temporal-client.service';

type CommandBody = CaseCommand extends infer C ? (C extends unknown ? Omit<C, 'commandId' | 'actor' | 'audit'> : never) : never;

/** How long a user waits for the case workflow before the call fails with UNEXP.SERVICE.UNAVAILABLE. */
const UPDATE_DEADLINE_MS = Number(process.env.CASE_COMMAND_DEADLINE_MS) || 15_000;

/**
 * The user's wait is bounded without bounding the gRPC call itself: a deadline on the Update call
 * makes the server answer early and the client poll, which added seconds to some commands. A
 * command still running when the user gave up is applied once (its id), and its live event tells
 * the page.
 */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the case workflow within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Sends a command to the case's workflow (spec 01 §4; ARCHITECTURE "Case lifecycle") and turns
 * its refusal into the coded error of spec 01 §8. The command id is the request's correlation id,
 * so a retried HTTP call or a retried activity applies the command once. The call's audit entry
 * travels with the command: the handler writes it in the transaction of the change, with the
 * live event (CaseCommandsHandler.apply).
 */
@Injectable()
export class CaseCommandsService {
  private readonly log = new Logger('case-commands');

  constructor(private readonly temporal: TemporalClientService) {}

  async run(user: UserContext, caseId: number, body: CommandBody): Promise<CaseCommandResult> {
    const ctx = requestContext.getStore();
    auditValues({ caseId, command: body.kind });
    const audit = ctx?.pendingAudit?.();
    const command = {
      ...body,
      commandId: `${ctx?.correlationId ?? `${Date.now()}-${Math.random()}`}:${caseId}:${body.kind}`,
      actor: { id: user.id, name: `${user.firstName} ${user.lastName}`, userType: user.role },
      ...(audit ? { audit } : {}),
    } as CaseCommand;
    let result: CaseCommandResult;
    try {
      const client = await this.temporal.get();
      result = await withinDeadline(runCaseCommand(client, caseId, command, { taskQueue: this.temporal.taskQueue }), UPDATE_DEADLINE_MS);
      if (result.callbackTimers?.length) void this.startCallbackTimers(client, caseId, result.callbackTimers);
    } catch (err) {
      const failure = caseCommandFailure(err);
      if (!failure || !isErrorCode(failure.code)) {
        this.log.error(`case ${caseId} ${body.kind}: ${(err as Error).message}`);
        fail(ErrorCode.ServiceUnavailable);
      }
      throw new CodedError(failure.code, failure.details?.payload, failure.details?.fields, failure.message);
    }
    // The handler wrote the entry with the change; the interceptor must not write a second one.
    if (audit && ctx) ctx.auditWritten = true;
    auditValues({ status: result.state.status, requestId: result.requestId });
    return result;
  }

  /**
   * Starts the callback timers a command asked for (held new tasks, a case back in placement). Not
   * awaited by the caller: the change is committed, and a timer not set now is made up for by the
   * callbacks sweep (the task row holds the callback time).
   */
  private async startCallbackTimers(client: Awaited<ReturnType<TemporalClientService['get']>>, caseId: number, timers: Array<{ taskId: number; callbackAt: string }>) {
    try {
      await setCallbackTimers(client, timers, { taskQueue: this.temporal.taskQueue });
    } catch (err) {
      this.log.warn(`case ${caseId}: callback timers not set (${(err as Error).message}); the callbacks sweep will make the tasks due`);
    }
  }
}
