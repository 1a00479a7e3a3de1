import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { isCaseSourceSide, type UserContext } from '@crisis/forms';
import { CasesService, type CaseRef } from '../cases/cases.service';
import { forbidden } from '../common/coded-error';
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

/** The case in scope, and the user on its source side (isCaseSourceSide of forms/), else FRBD. */
@Injectable()
export class SourceSideCasePipe implements PipeTransform<CaseParamInput, Promise<CaseRef>> {
  constructor(private readonly cases: CasesService) {}

  async transform({ user, raw }: CaseParamInput): Promise<CaseRef> {
    const c = await this.cases.findInScope(user, parseId(raw));
    if (!isCaseSourceSide(user, c)) throw forbidden();
    return c;
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
/**
 * For the edits of a case's own record (patient, source details, insurances, vitals, case notes;
 * spec 01 §6 "not referring"): the scoped case, refused with FRBD to a user who only reads it
 * because a referring division of hers was granted or accepted it.
 */
export const SourceSideCase = (name = 'id') => CaseParam(name, SourceSideCasePipe);
export type { CaseRef };
