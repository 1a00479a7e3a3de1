import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, type UserContext } from '@crisis/forms';
import { caseCommandFailure, runCaseCommand, type CaseCommand, type CaseCommandResult } from '@crisis/workflows';
import { CodedError } from '../common/coded-error';
import { auditValues, requestContext } from '../common/request-context';
import { LiveService } from '../live/live.service';
import { TemporalClientService } from '../temporal/temporal-client.service';

/** HTTP status of a refused case command, by code. */
const STATUS_BY_CODE: Record<string, number> = { NTFND: 404, FRBD: 403, INV: 400 };

/** Live room of a case: everyone with its page open. */
export const caseRoom = (caseId: number) => `case:${caseId}`;

type CommandBody = CaseCommand extends infer C ? (C extends unknown ? Omit<C, 'commandId' | 'actor'> : never) : never;

/**
 * Sends a command to the case's workflow (spec 01 §4; ARCHITECTURE "Case lifecycle") and turns
 * its refusal into the coded error of spec 01 §8. The command id is the request's correlation id,
 * so a retried HTTP call or a retried activity applies the command once.
 */
@Injectable()
export class CaseCommandsService {
  private readonly log = new Logger('case-commands');

  constructor(
    private readonly temporal: TemporalClientService,
    private readonly live: LiveService,
  ) {}

  async run(user: UserContext, caseId: number, body: CommandBody): Promise<CaseCommandResult> {
    const ctx = requestContext.getStore();
    const command = {
      ...body,
      commandId: `${ctx?.correlationId ?? `${Date.now()}-${Math.random()}`}:${caseId}:${body.kind}`,
      actor: { id: user.id, name: `${user.firstName} ${user.lastName}`, userType: user.role },
    } as CaseCommand;
    auditValues({ caseId, command: body.kind });
    let result: CaseCommandResult;
    try {
      result = await runCaseCommand(await this.temporal.get(), caseId, command, { taskQueue: this.temporal.taskQueue });
    } catch (err) {
      const failure = caseCommandFailure(err);
      if (!failure) {
        this.log.error(`case ${caseId} ${body.kind}: ${(err as Error).message}`);
        throw new CodedError(503, ErrorCode.Unexpected, undefined, undefined, 'The case service is not available; try again');
      }
      const status = STATUS_BY_CODE[failure.code] ?? 409;
      throw new CodedError(status, failure.code, failure.details?.payload, failure.details?.fields, failure.message);
    }
    auditValues({ status: result.state.status, requestId: result.requestId });
    this.live.toRoom(caseRoom(caseId), 'case.updated', { caseId, status: result.state.status, version: result.state.version });
    for (const userId of result.notifiedUserIds ?? []) this.live.toUser(userId, 'notification', { caseId });
    return result;
  }
}
