import { Injectable, Logger, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, ERROR_HEADER, type AppAbility, type UserContext } from '@crisis/forms';
import { ABILITY_CHECK, type AbilityCheck } from '../auth/abilities.guard';
import { IpAllowListService } from '../security/ip-allow-list.service';
import { AUDIT_ACTION, AUDIT_REACHED, KIND_BY_METHOD, SKIP_AUDIT } from './audit.interceptor';
import { AuditService } from './audit.service';

interface RouteInfo {
  action: string;
  check?: AbilityCheck;
  skip: boolean;
}

const METHOD_NAME: Partial<Record<RequestMethod, string[]>> = {
  [RequestMethod.GET]: ['GET'],
  [RequestMethod.POST]: ['POST'],
  [RequestMethod.PUT]: ['PUT'],
  [RequestMethod.DELETE]: ['DELETE'],
  [RequestMethod.PATCH]: ['PATCH'],
  [RequestMethod.ALL]: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
};

const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');

/**
 * Records API calls refused by a route guard (403 FRBD from the IpAllowListGuard or the
 * AbilitiesGuard) in the audit log, with success = false. Guards run before interceptors, so the
 * AuditInterceptor never sees these calls; it marks the requests it does see (AUDIT_REACHED), and
 * a refusal is recorded here only for a signed-in caller whose request never reached it — a call
 * refused later, inside its handler, is recorded by the interceptor alone (no double entries).
 * The token guard's refusals (401, and 403 for a revoked token) carry no user and are not recorded.
 *
 * The entry has the interceptor's shape: the route's main action (@AuditAction or
 * Controller.handler), kind by method (Read for GET), the caller, method, path, status 403, the
 * correlation id, the (redacted) body, and values with the route parameters plus what was
 * required and which guard refused.
 */
@Injectable()
export class GuardRefusalAudit implements OnModuleInit {
  private readonly log = new Logger('audit');
  private readonly routes = new Map<string, RouteInfo>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
    private readonly ipLists: IpAllowListService,
  ) {}

  onModuleInit() {
    this.collectRoutes();
    const instance = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!instance?.addHook) return; // not Fastify (a test application context)
    instance.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode === 403 && !(req as any)[AUDIT_REACHED] && (req as any).user) {
        await this.record(req, reply).catch((err) => this.log.error({ err }, 'could not record a guard refusal'));
      }
      return payload;
    });
  }

  /** METHOD + route pattern (as Fastify registered it) → the route's audit facts. */
  private collectRoutes() {
    for (const wrapper of this.discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const prefixes = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      const proto = Object.getPrototypeOf(instance);
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const paths = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        const targets = [handler, metatype];
        const info: RouteInfo = {
          action: this.reflector.getAllAndOverride<string>(AUDIT_ACTION, targets) ?? `${metatype.name.replace(/Controller$/, '')}.${name}`,
          check: this.reflector.getAllAndOverride<AbilityCheck>(ABILITY_CHECK, targets),
          skip: !!this.reflector.getAllAndOverride<boolean>(SKIP_AUDIT, targets),
        };
        for (const prefix of prefixes)
          for (const path of paths)
            for (const m of METHOD_NAME[method] ?? []) this.routes.set(`${m} ${joinPath(prefix, path)}`, info);
      }
    }
  }

  private async record(req: FastifyRequest, reply: FastifyReply) {
    const error = String(reply.getHeader(ERROR_HEADER) ?? '');
    if (!error.includes(`"${ErrorCode.Forbidden}"`)) return;
    const user = (req as any).user as UserContext;
    const ability = (req as any).ability as AppAbility | undefined;
    const pattern = req.routeOptions?.url ?? req.url.split('?')[0];
    const route = this.routes.get(`${req.method} ${pattern}`);
    if (route?.skip) return;
    const allowedByAbility = !!route?.check && !!ability?.can(route.check.action, route.check.subject);
    const ipAllowed = await this.ipLists.allows(user, req.ip).catch(() => true);
    const refusedBy = !ipAllowed ? 'IpAllowList' : allowedByAbility ? 'Unknown' : 'Ability';
    const isMultipart = String(req.headers['content-type'] ?? '').startsWith('multipart/');
    await this.audit.record({
      mainAction: route?.action ?? `${req.method} ${pattern}`,
      kind: KIND_BY_METHOD[req.method] ?? 'Read',
      user,
      success: false,
      method: req.method,
      path: req.url.split('?')[0],
      statusCode: 403,
      correlationId: String(req.id),
      body: isMultipart ? undefined : req.body,
      // An IP allow-list refusal belongs to the caller's organization (her facility admin sees who her
      // facility's list keeps out); a refusal by the role table is a platform security event for the
      // ITP admin's global table only (the UI never offers what the role may not do).
      facilityId: refusedBy === 'IpAllowList' ? (user.facilityId ?? null) : null,
      values: {
        ...(req.params as object),
        refusedBy,
        ...(route?.check ? { requires: `${route.check.action} ${route.check.subject}` } : {}),
        ...(refusedBy === 'IpAllowList' ? { clientIp: req.ip } : {}),
      },
    });
  }
}
