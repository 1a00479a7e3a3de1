import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, lastValueFrom, Observable } from 'rxjs';
import { requestContext } from './request-context';

/** Runs the handler inside the request's async context (user, correlation id, audit values). */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest();
    const store = { correlationId: String(req.id), user: req.user, auditValues: {} };
    return from(requestContext.run(store, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
