import { AsyncLocalStorage } from 'async_hooks';
import type { UserContext } from '@crisis/forms';
import type { CaseCommandAudit } from '@crisis/workflows';

/** What is known about the request being served, for the audit entry and the logs. */
export interface RequestContext {
  correlationId: string;
  user?: UserContext;
  /** Facts an action wants to see in its audit entry's "values" (facilityId, divisionId, ...). */
  auditValues: Record<string, unknown>;
  /** Overrides the audit entry's main action (defaults to the route's). */
  auditAction?: string;
  /**
   * On routes whose change the case workflow commits (@AuditAfterCommand): hands the call's audit
   * entry to the first case command, whose handler writes it with the change. Taken once.
   */
  pendingAudit?: () => CaseCommandAudit | undefined;
  /** The entry was written with the change: the interceptor writes none. */
  auditWritten?: boolean;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** Adds facts to the current request's audit entry. */
export function auditValues(values: Record<string, unknown>): void {
  const ctx = requestContext.getStore();
  if (ctx) Object.assign(ctx.auditValues, values);
}
