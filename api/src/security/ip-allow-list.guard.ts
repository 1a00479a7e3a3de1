import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { UserContext } from '@crisis/forms';
import { forbidden } from '../common/coded-error';
import { IpAllowListService } from './ip-allow-list.service';

/**
 * Refuses (403 FRBD) every API call of a signed-in user whose organization — the ITP
 * organization for ITP staff, her facility for facility staff — has its IP allow-list enabled,
 * when the client address is not on it. Runs after the AuthGuard (which sets req.user); public
 * routes carry no user and pass. The client address is Fastify's request.ip: the connection's,
 * or what a trusted proxy (TRUSTED_PROXIES) says in X-Forwarded-For, never a client's own claim.
 */
@Injectable()
export class IpAllowListGuard implements CanActivate {
  constructor(private readonly lists: IpAllowListService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: UserContext }>();
    if (!req.user) return true;
    if (!(await this.lists.allows(req.user, req.ip))) throw forbidden();
    return true;
  }
}
