import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify, type JWTPayload } from 'jose';
import { CodedError, ErrorCode, TOKEN_REVOKED_HEADER, type AppAbility } from '@crisis/forms';
import { config } from '../config';
import { unauthorized } from '../common/coded-error';
import { IdentityKeys } from '../identity/identity-keys.service';
import { abilityFor } from './abilities.guard';
import { IS_PUBLIC } from './public.decorator';
import { UserContextService, type LoadedUser } from './user-context.service';

/**
 * Whether a token issued at `issuedAtSeconds` (its iat) no longer speaks for the user: she was
 * deactivated, or it was issued before her tokensValidAfter (password changed, role changed,
 * signed out everywhere). The API's guard and the live channel both ask this.
 */
export function tokenRevoked(user: Pick<LoadedUser, 'isActive' | 'tokensValidAfter'>, issuedAtSeconds: number | undefined): boolean {
  return !user.isActive || (issuedAtSeconds ?? 0) * 1000 < user.tokensValidAfter.getTime() - 1000;
}

/**
 * Accepts only valid bearer access tokens issued by our identity server for the API audience.
 * A token issued before the user's tokensValidAfter (password changed, deactivated, signed out
 * everywhere) is refused with 403 and the revoked header, so the UI renews it once and retries.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private static readonly MAX_CACHED_TOKENS = 10_000;
  private readonly verified = new Map<string, JWTPayload>();
  private readonly abilities = new WeakMap<LoadedUser, AppAbility>();

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
    const payload = await this.verify(token);
    const userId = Number(payload.sub);
    const loaded = Number.isInteger(userId) ? await this.users.load(userId) : null;
    if (!loaded) throw unauthorized();
    if (tokenRevoked(loaded, payload.iat)) {
      reply.header(TOKEN_REVOKED_HEADER, 'true');
      throw new CodedError(ErrorCode.Forbidden);
    }
    req.user = loaded.context;
    req.ability = this.abilityOf(loaded);
    return true;
  }

  /**
   * Verifies the token's signature, issuer, audience and expiry once, then remembers the result
   * until the token expires: a UI sends the same token many times, and RSA verification was the
   * largest CPU cost of a list call. Revocation is still checked on every request (above).
   */
  private async verify(token: string): Promise<JWTPayload> {
    const hit = this.verified.get(token);
    if (hit && (hit.exp ?? 0) * 1000 > Date.now()) return hit;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keys.verificationKeySet(), {
        issuer: config.identity.issuer,
        audience: config.identity.resource,
      }));
    } catch {
      this.verified.delete(token);
      throw unauthorized();
    }
    if (this.verified.size >= AuthGuard.MAX_CACHED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, payload);
    return payload;
  }

  /** One ability per loaded user context (the context itself is cached for a few seconds). */
  private abilityOf(loaded: LoadedUser) {
    let ability = this.abilities.get(loaded);
    if (!ability) this.abilities.set(loaded, (ability = abilityFor(loaded.context)));
    return ability;
  }
}
