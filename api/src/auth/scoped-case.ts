import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import type { UserContext } from '@crisis/forms';
import { CasesService, type CaseRef } from '../cases/cases.service';
import { parseId } from '../common/id-param';

interface CaseParamInput {
  user: UserContext;
  raw: unknown;
}

/** The case of a route parameter, checked against the user's scope (CasesService.findInScope). */
@Injectable()
export class ScopedCasePipe implements PipeTransform<CaseParamInput, Promise<CaseRef>> {
  constructor(private readonly cases: CasesService) {}

  transform({ user, raw }: CaseParamInput): Promise<CaseRef> {
    return this.cases.findInScope(user, parseId(raw));
  }
}

const CaseParam = createParamDecorator((name: string, ctx: ExecutionContext): CaseParamInput => {
  const req = ctx.switchToHttp().getRequest();
  return { user: req.user, raw: req.params?.[name] };
});

/**
 * The case named by a route parameter (`:id` unless told), already scoped to the signed-in user:
 * `@ScopedCase() c: CaseRef`. NTFND when the id is not a positive integer or no such case
 * exists, FRBD when the user may not open it; the handler runs only with a case it may use.
 * The controller's module must provide CasesService (every case controller's does).
 */
export const ScopedCase = (name = 'id') => CaseParam(name, ScopedCasePipe);
export type { CaseRef };
