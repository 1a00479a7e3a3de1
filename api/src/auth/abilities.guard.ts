import { CanActivate, ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { defineAbilityFor, type Action, type AppAbility, type Subject, type UserContext } from '@crisis/forms';
import { subject as asSubject } from '@casl/ability';
import { forbidden } from '../common/coded-error';
import { IS_PUBLIC } from './public.decorator';

export const ABILITY_CHECK = 'ability:check';
export interface AbilityCheck {
  action: Action;
  subject: Subject;
}

/**
 * Declares what a route needs from the ability table. Every non-public route must carry one:
 * a route with no declaration is refused (deny by default).
 */
export const CheckAbility = (action: Action, subject: Subject) =>
  applyDecorators(
    SetMetadata(ABILITY_CHECK, { action, subject } satisfies AbilityCheck),
    ApiBearerAuth(),
    // The authorization-matrix test reads this from /api/openapi.json and checks every route against the table.
    ApiExtension('x-ability', { action, subject }),
    ApiUnauthorizedResponse({ description: 'UNAUTH: no or invalid access token' }),
    ApiForbiddenResponse({ description: `FRBD: needs ${action} ${subject}` }),
  );

@Injectable()
export class AbilitiesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const check = this.reflector.getAllAndOverride<AbilityCheck>(ABILITY_CHECK, targets);
    const req = context.switchToHttp().getRequest();
    if (!check || !req.ability?.can(check.action, check.subject)) throw forbidden();
    return true;
  }
}

/** The signed-in user's ability, built once per request from the ability table. */
export const abilityFor = (user: UserContext): AppAbility => defineAbilityFor(user);

/** Record-level check: throws FRBD unless the ability allows the action on this record. */
export function assertCan(ability: AppAbility, action: Action, type: Subject, record: Record<string, unknown>, field?: string) {
  if (!ability.can(action, asSubject(type as any, { ...record }) as any, field)) throw forbidden();
}
