import { applyDecorators, Delete, Get, Patch, Post, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiParam, DECORATORS } from '@nestjs/swagger';
import type { Action, Subject } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { AuditAction } from '../audit/audit.interceptor';

const METHODS = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete } as const;
export type RouteMethod = keyof typeof METHODS;

/** Path parameters named like ids (`:id`, `:caseId`, `:noteId`) are documented as integers. */
const ID_NAME = /^(id|\w+Id)$/;

/** Documents the id parameters of a path, except those an explicit @ApiParam (below) describes. */
const ApiIdParams =
  (path: string | undefined): MethodDecorator =>
  (target, key, descriptor) => {
    const documented: { name?: string }[] = Reflect.getMetadata(DECORATORS.API_PARAMETERS, descriptor.value as object) ?? [];
    for (const [, name] of (path ?? '').matchAll(/:(\w+)/g))
      if (ID_NAME.test(name) && !documented.some((p) => p.name === name)) ApiParam({ name, type: Number })(target, key, descriptor);
  };

/**
 * One route in one line: the HTTP method and path, the ability it needs (CheckAbility: guard,
 * bearer auth, x-ability and 401/403 in OpenAPI), the OpenAPI parameter of every `:xId` in the
 * path, and, for a mutating route, the audit action it records.
 *
 *   @Route('PUT', ':id', 'manage', 'Facility', 'Facility.Update')
 */
export const Route = (method: RouteMethod, path: string | undefined, action: Action, subject: Subject, audit?: string) =>
  applyDecorators(
    METHODS[method](path ?? ''),
    CheckAbility(action, subject),
    ApiIdParams(path),
    ...(audit ? [AuditAction(audit)] : []),
  );

/**
 * A route of one facility's tabs (`api/facilities/:id/…`, ITP admin): manage Facility, and a 404
 * when the facility does not exist.
 */
export const FacilityRoute = (method: RouteMethod, path: string | undefined, audit?: string) =>
  applyDecorators(Route(method, path, 'manage', 'Facility', audit), ApiNotFoundResponse({ description: 'NTFND: no such facility' }));
