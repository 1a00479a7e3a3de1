import { CodedError, type UserContext } from '@crisis/forms';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectConnection } from '@nestjs/sequelize';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { Sequelize } from 'sequelize-typescript';
import { requestContext } from '../common/request-context';
import { AuditService } from './audit.service';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const KIND_BY_METHOD: Record<string, string> = { POST: 'Create', PUT: 'Update', PATCH: 'Update', DELETE: 'Delete' };

export const AUDIT_ACTION = 'audit:action';
/** Names the audit entry's main action, e.g. @AuditAction('Facility.Create'). */
export const AuditAction = (name: string) => SetMetadata(AUDIT_ACTION, name);
export const SKIP_AUDIT = 'audit:skip';
/** Set on every request this interceptor sees: a 403 on a request without it was a guard's refusal (guard-refusal-audit.ts). */
export const AUDIT_REACHED = Symbol('audit:reached');
/** For mutating calls that change nothing worth recording (claim renewals every few seconds). */
export const SkipAudit = () => SetMetadata(SKIP_AUDIT, true);
export const AUDIT_AFTER = 'audit:after';
/**
 * For calls whose change is committed elsewhere (a command the case workflow applies in its own
 * transaction): no request transaction is held open while Temporal answers; the entry is written
 * once the call has succeeded or failed.
 */
export const AuditAfterCommand = () => SetMetadata(AUDIT_AFTER, true);

/**
 * Every mutating request runs in one database transaction that also writes its audit entry, so
 * the change and its record commit together. A failed request rolls back and is then recorded
 * with success = false. Calls refused by a route guard never get here: GuardRefusalAudit records those.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly audit: AuditService,
    private readonly reflector: Reflector,
    @InjectConnection() private readonly sequelize: Sequelize,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    (req as any)[AUDIT_REACHED] = true;
    const skip = this.reflector.getAllAndOverride<boolean>(SKIP_AUDIT, [context.getHandler(), context.getClass()]);
    if (!MUTATING.has(req.method) || skip) return next.handle();
    const action =
      this.reflector.getAllAndOverride<string>(AUDIT_ACTION, [context.getHandler(), context.getClass()]) ??
      `${context.getClass().name.replace(/Controller$/, '')}.${context.getHandler().name}`;
    const ctx = requestContext.getStore();
    const base = () => ({
      mainAction: ctx?.auditAction ?? action,
      kind: KIND_BY_METHOD[req.method],
      user: ctx?.user,
      method: req.method,
      path: req.url.split('?')[0],
      correlationId: ctx?.correlationId,
      body: isMultipart(req) ? undefined : req.body,
      values: { ...(req.params as object), ...ctx?.auditValues },
    });
    const after = this.reflector.getAllAndOverride<boolean>(AUDIT_AFTER, [context.getHandler(), context.getClass()]);
    return from(
      (async () => {
        try {
          if (after) {
            if (ctx) {
              let taken = false;
              ctx.pendingAudit = () => {
                if (taken) return undefined;
                taken = true;
                const { user, ...rest } = base();
                return { ...rest, user: user ? auditUser(user) : null };
              };
            }
            const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
            if (!ctx?.auditWritten) await this.audit.record({ ...base(), success: true, statusCode: 200 });
            return result;
          }
          return await this.sequelize.transaction(async () => {
            const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
            await this.audit.record({ ...base(), success: true, statusCode: 200 });
            return result;
          });
        } catch (err) {
          const status = err instanceof CodedError ? err.status : 500;
          await this.audit.record({ ...base(), success: false, statusCode: status }).catch(() => undefined);
          throw err;
        }
      })(),
    );
  }
}

const isMultipart = (req: FastifyRequest) => String(req.headers['content-type'] ?? '').startsWith('multipart/');

/** The user fields an audit entry keeps (what travels with a case command to the worker). */
function auditUser(u: UserContext) {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    role: u.role,
    organizationName: u.organizationName ?? null,
    facilityId: u.facilityId ?? null,
    divisionName: u.divisionName ?? null,
  };
}
