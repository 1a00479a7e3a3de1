import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Action, Subject } from '@crisis/forms';
import { AuditAfterCommand } from '../audit/audit.interceptor';
import { Route, type RouteMethod } from '../common/route';

/**
 * A route that runs a command on the case workflow: the ability it needs, its audit action
 * written once the command has answered (AuditAfterCommand: no request transaction is held
 * while Temporal answers), and what the 200 answer holds (the case's state).
 *
 *   @CommandRoute('PUT', ':id/resume', 'update', 'CaseStatus', 'Case.Resume', 'Back to statusToResume', CASE_STATE)
 */
export const CommandRoute = (
  method: RouteMethod,
  path: string,
  action: Action,
  subject: Subject,
  audit: string,
  ok: string,
  schema?: object,
) => applyDecorators(Route(method, path, action, subject, audit), AuditAfterCommand(), ApiOkResponse({ description: ok, ...(schema ? { schema } : {}) }));
