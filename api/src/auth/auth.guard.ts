import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import { ErrorCode, TOKEN_REVOKED_HEADER } from '@crisis/forms';
import { config } from '../config';
import { CodedError, unauthorized } from '../common/coded-error';
import { IdentityKeys } from '../identity/identity-keys.service';
import { abilityFor } from './abilities.guard';
import { IS_PUBLIC } from './public.decorator';
import { UserContextService } from './user-context.service';

/**
 * Accepts only valid bearer access tokens issued by our identity server for the API audience.
 * A token issued before the user's tokensValidAfter (password changed, deactivated, signed out
 * everywhere) is refused with 403 and the revoked header, so the UI renews it once and retries.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly users: UserContextService,
    private readonly keys: IdentityKeys,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & Record<string, any>>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const header = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/i.exec(header)?.[1];
    if (!token) throw unauthorized();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.keys.verificationKeySet(), {
        issuer: config.identity.issuer,
        audience: config.identity.resource,
      }));
    } catch {
      throw unauthorized();
    }
    const userId = Number(payload.sub);
    const loaded = Number.isInteger(userId) ? await this.users.load(userId) : null;
    if (!loaded) throw unauthorized();
    if (!loaded.isActive || (payload.iat ?? 0) * 1000 < loaded.tokensValidAfter.getTime() - 1000) {
      reply.header(TOKEN_REVOKED_HEADER, 'true');
      throw new CodedError(403, ErrorCode.Forbidden);
    }
    req.user = loaded.context;
    req.ability = abilityFor(loaded.context);
    return true;
  }
}
