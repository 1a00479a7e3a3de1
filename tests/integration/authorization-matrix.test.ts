import { defineAbilityFor, USER_TYPES, type UserContext, type UserType } from '@crisis/forms';
import { api } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';
import { listRoutes, type RouteInfo } from './openapi-routes';

/**
 * Asks every route of the API as each of the six roles and compares the answer with the ability
 * table in forms/: a role the table refuses gets 403 FRBD; a role it allows is never refused
 * (its call may still be a 400 for the empty body or a 404, but not 401/403, and never a 500).
 * Routes come from the OpenAPI document, so a new route is covered the day it is written.
 */
describe('authorization matrix', () => {
  let routes: RouteInfo[];
  const sessions = new Map<UserType, { token: string; ctx: UserContext }>();
  let anyFacilityId: number;

  beforeAll(async () => {
    routes = await listRoutes();
    for (const role of USER_TYPES) {
      const { accessToken } = await signInAs(role);
      const ctx = (await api<UserContext>('GET', '/api/user/context', { token: accessToken })).body;
      sessions.set(role, { token: accessToken, ctx });
    }
    anyFacilityId = (await db.query('SELECT min(id) AS id FROM facilities')).rows[0].id;
  });
  afterAll(() => db.end());

  async function pathFor(route: RouteInfo, ctx: UserContext): Promise<string> {
    let path = route.path;
    const facilityId = ctx.facilityId ?? anyFacilityId;
    for (const p of route.pathParams) {
      // An id nobody holds (claims are per user: id 1 may be another user's, which is a 403 by design).
      let value = '987654321';
      if (route.path.startsWith('/api/facilities') && (p === 'id' || p === 'facilityId')) value = String(facilityId);
      if (p === 'divisionId') {
        const { rows } = await db.query('SELECT min(id) AS id FROM divisions WHERE facility_id = $1', [facilityId]);
        value = String(rows[0].id ?? 1);
      }
      path = path.replace(`{${p}}`, value);
    }
    return path;
  }

  it('lists routes, every one either public or guarded by the ability table', async () => {
    expect(routes.length).toBeGreaterThan(10);
    const unguarded = routes.filter((r) => !r.isPublic && !r.ability).map((r) => `${r.method} ${r.path}`);
    expect(unguarded).toEqual([]);
  });

  it('refuses every guarded route without a token (401 UNAUTH) and serves public ones', async () => {
    for (const route of routes) {
      const res = await api(route.method, route.path.replace(/\{[^}]+\}/g, '1'), { body: route.method === 'GET' ? undefined : {} });
      if (route.isPublic) expect([route.path, res.status]).toEqual([route.path, 200]);
      else expect([route.method, route.path, res.status, res.error?.code]).toEqual([route.method, route.path, 401, 'UNAUTH']);
    }
  });

  it.each(USER_TYPES)('answers %s as the ability table says', async (role) => {
    const { token, ctx } = sessions.get(role)!;
    const ability = defineAbilityFor(ctx);
    const mismatches: string[] = [];
    for (const route of routes.filter((r) => r.ability)) {
      const { action, subject } = route.ability!;
      const allowed = ability.can(action as any, subject as any);
      const res = await api(route.method, await pathFor(route, ctx), { token, body: route.method === 'GET' ? undefined : {} });
      const ok = allowed ? res.status !== 401 && res.status !== 403 && res.status < 500 : res.status === 403 && res.error?.code === 'FRBD';
      if (!ok) mismatches.push(`${route.method} ${route.path}: ${allowed ? 'allowed' : 'refused'} by the table, got ${res.status} ${res.error?.code ?? ''}`);
    }
    expect(mismatches).toEqual([]);
  });
});
