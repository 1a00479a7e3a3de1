import { api } from '../support/api';
import {
  ANY_FACILITY_SQL, checkAnonymous, checkMatrix, checkScope, KNOWN_GAPS, KNOWN_SCOPE_GAPS, ROLES, SCOPE_SPEC, scopeTargets, signInRoles, SPEC, specRowFor,
  type Sessions, type ScopeTargets,
} from '../support/authorization-spec';
import { db } from '../support/db';
import { listRoutes, routeKey, type RouteInfo } from '../support/openapi-routes';

/**
 * The authorization matrix and the row scope, as written from the spec in
 * tests/support/authorization-spec.ts (the reliability battery checks the same table): every
 * route has a row, each role gets the answer its row says apart from KNOWN_GAPS, and ids of rows
 * a role may not open are refused apart from KNOWN_SCOPE_GAPS.
 */

afterAll(() => db.end());

describe('authorization matrix (expected answers from the spec)', () => {
  let routes: RouteInfo[];
  let sessions: Sessions;
  let anyFacilityId: number;

  beforeAll(async () => {
    routes = await listRoutes();
    sessions = await signInRoles();
    anyFacilityId = (await db.query(ANY_FACILITY_SQL)).rows[0].id;
  });

  it('has a spec row for every route of the API, and every row still matches a route', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((r) => !r.isPublic && !specRowFor(r)).map(routeKey)).toEqual([]);
    expect(SPEC.filter((s) => !routes.some((r) => !r.isPublic && s.route.test(routeKey(r)))).map((s) => String(s.route))).toEqual([]);
    for (const s of SPEC) expect([String(s.route), /^[YN?]{6}$/.test(s.roles)]).toEqual([String(s.route), true]);
    expect(ROLES).toHaveLength(6);
  });

  it('refuses every guarded route without a token (401 UNAUTH) and serves the public ones', async () => {
    expect(routes.filter((r) => r.isPublic).map(routeKey).sort()).toEqual(['GET /api/demo-tools/outbox', 'GET /api/health', 'GET /api/settings']);
    expect(await checkAnonymous(routes)).toEqual([]);
  });

  it('answers each role as the spec says, apart from the known gaps', async () => {
    const result = await checkMatrix(routes, sessions, anyFacilityId);
    expect(result.checked).toBeGreaterThan(600);
    expect(result.gaps.sort()).toEqual([...KNOWN_GAPS].sort());
  });
});

describe('row scope: ids of cases and facilities a user may not open', () => {
  let targets: ScopeTargets;

  beforeAll(async () => {
    targets = await scopeTargets();
  });

  it('refuses every row out of scope and serves the controls, apart from the known gaps', async () => {
    const result = await checkScope(targets);
    expect(result.checked).toBe(SCOPE_SPEC.reduce((n, row) => n + row.who.length * row.calls.length, 0));
    expect(result.gaps.sort()).toEqual([...KNOWN_SCOPE_GAPS].sort());
  });

  it('lets a provider open any case (case-scope.ts) but not move a request that is not assigned to him', async () => {
    // The scope table's request: a case from the emergency department's facility user, assigned to no provider.
    const request = (await db.query('SELECT id, case_id, evaluation_provider_id FROM requests WHERE id = $1', [targets.ids.unassignedRequest])).rows[0];
    expect(request.evaluation_provider_id).toBeNull();
    expect((await api('GET', `/api/cases/${request.case_id}`, { token: targets.tokens.IP })).status).toBe(200);
    // Opening the case moves only a Pending request assigned to him (spec 01 §4): here nothing moves.
    await api('PUT', `/api/requests/${request.id}/in-progress`, { token: targets.tokens.IP });
    expect((await db.query('SELECT status FROM requests WHERE id = $1', [request.id])).rows[0].status).toBe('New');
    // Not ready needs an InProgress request: this New one is refused on that ground first.
    const notReady = await api('PUT', `/api/requests/${request.id}/not-ready-for-evaluation`, { token: targets.tokens.IP, body: { reason: 'x' } });
    expect([403, 409]).toContain(notReady.status);
    // The refused evaluation steps of the scope table changed nothing either.
    const after = (await db.query('SELECT status FROM requests WHERE id = $1', [request.id])).rows[0];
    expect(after.status).toBe('New');
  });
});
