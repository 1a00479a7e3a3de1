import type { UserContext, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { createCase } from '../support/cases';
import { db } from '../support/db';
import { signIn, signInAs } from '../support/oidc-client';
import { listRoutes, type RouteInfo } from './openapi-routes';

/**
 * The authorization matrix, with its expected answers written by hand from the spec's role tables
 * (spec 01 §6, 02 §6, 03 §6), not read from the ability table in forms/ that the API enforces.
 *
 * Every route of the API (from the OpenAPI document) must match a row of SPEC below, so a new
 * route fails this test until someone writes down who may call it. Per role a row says
 *   Y  the spec grants it: the call is never 401/403 (it may be a 400 for the empty body, a 404
 *      for the unknown id) and never a 500;
 *   N  the spec does not grant it: 403 FRBD;
 *   ?  the spec says nothing either way (not checked here; listed in the row's `note`).
 * Where the API disagrees with the spec, the row still says what the spec says, and the
 * disagreement is listed in KNOWN_GAPS: the test asserts the current disagreements are exactly
 * those, so fixing one (or adding one) makes it fail until the list is updated.
 *
 * Row scope (ARCHITECTURE; api/src/cases/case-scope.ts) is checked with real ids below.
 */

type Role = 'IA' | 'IU' | 'IP' | 'FA' | 'FU' | 'GU';
type Answer = 'Y' | 'N' | '?';
const ROLE_OF: Record<Role, UserType> = {
  IA: 'IntegratedTelehealthPartners_Admin',
  IU: 'IntegratedTelehealthPartners_User',
  IP: 'IntegratedTelehealthPartners_Provider',
  FA: 'Facility_Admin',
  FU: 'Facility_User',
  GU: 'Group_User',
} as Record<Role, UserType>;
const ROLES = Object.keys(ROLE_OF) as Role[];

interface Row {
  /** `METHOD path-regex` matched against `METHOD /openapi/path` (first matching row wins). */
  route: RegExp;
  /** Answers in the order IA IU IP FA FU GU, e.g. 'YYNNNN'. */
  roles: string;
  spec: string;
}
const row = (route: RegExp, roles: string, spec: string): Row => ({ route, roles, spec });

const SPEC: Row[] = [
  // ---- own profile and shared lookups: every signed-in user (the profile menu, address fields)
  row(/^(GET|PUT) \/api\/user\/(context|password)$/, 'YYYYYY', 'every user has a profile (03 §6)'),
  row(/^(GET|PUT) \/api\/user\/profile\/\{id\}$/, 'YYYYYY', 'own profile'),
  row(/^POST \/api\/user\/avatar$|^GET \/api\/avatar\//, 'YYYYYY', 'own profile'),
  row(/^GET \/api\/address\//, 'YYYYYY', 'address fields of every form'),
  row(/^POST \/api\/user\/reset-mfa$/, '??????', 'not in the role tables'),
  // ---- users (03 §6 "/users, /users/{id}, /users/invite: ITP admin, facility admin"; "user list fetch: ITP admin, facility admin, ITP user")
  row(/^GET \/api\/user(\/lookups)?$/, 'YYNYNN', '03 §6 user list fetch'),
  row(/^PUT \/api\/user\/unlock$/, 'YY??NN', '03 §6 /unlock-users: ITP user; ITP admin unlocks on the edit screen'),
  row(/^(GET|PUT) \/api\/user\/\{id\}$/, 'YNNYNN', '03 §6 single user fetch / edit'),
  row(/^POST \/api\/user\/(invite|activate|deactivate|resend-invitation|reset-password)$/, 'YNNYNN', '03 §6 manages users; bulk actions'),
  row(/^(GET \/Users_Import_Template\.csv|POST \/api\/user\/import(\/validate)?)$/, 'YNNYNN', '03 §6 manages users (bulk)'),
  row(/^POST \/api\/user\/sms-notifications-receiving\//, 'YYYNNN', '03 §6 ITP admin may start SMS; ITP user SMS setting; provider SMS always / next N hours'),
  // ---- facilities (03 §6 "/facilities, /facilities/{id} … : ITP admin"; "/facility/settings: facility admin"; SSO tab; MFA)
  row(/^PUT \/api\/facilities\/\{id\}\/settings\/mfa$/, 'YNNYNN', '03 §6 facility admin: limited general tab (MFA)'),
  row(/^(GET|PUT) \/api\/facilities\/\{id\}\/external-login-provider-settings$/, 'YNNYNN', '03 §6 facility admin: SSO tab'),
  row(/^GET \/api\/facilities\/\{id\}(\/divisions(\/lookups|\/\{divisionId\})?)?$/, 'Y??Y??', '03 §6 /facility/settings (own facility), invite form divisions'),
  row(/^(GET|POST|PUT|DELETE) \/api\/facilities(\/|$)/, 'YNNNNN', '03 §6 /facilities: ITP admin'),
  row(/^(GET|POST|PUT|DELETE) \/api\/evaluation-forms(\/lookups|\/\{id\}(\/facilities|\/clone)?)?$/, 'YNNNNN', '02 §6 evaluation forms pages: ITP admin only; 03 §6 facility evaluation-forms tab: ITP admin'),
  row(/^GET \/api\/group-organizations\/lookups$/, 'Y?????', 'group lookups on the user form'),
  row(/^(GET|POST|PUT) \/api\/group-organizations/, 'YNNNNN', '03 §6 /group-organizations: ITP admin'),
  row(/^GET \/api\/payers\/lookups$/, 'Y?????', 'payer picker of the insurance forms'),
  row(/^(GET|POST|PUT) \/api\/payers/, 'YNNNNN', '03 §6 /payers: ITP admin'),
  row(/^(GET|POST|PUT) \/api\/billing-codes/, 'YNNNNN', '03 §6 /billing-codes: ITP admin'),
  row(/^GET \/api\/patient-tags\/lookups$/, 'Y?????', 'tag picker; 01 §6 gives tags to ITP admin, user, provider, the lookup is not named'),
  row(/^(GET|POST|DELETE) \/api\/patient-tags/, 'YNNNNN', '03 §6 /patient-tags: ITP admin'),
  row(/^(GET|PUT) \/api\/itp-organization/, 'YNNNNN', '03 §6 /itp-organization-settings: ITP admin'),
  row(/^GET \/api\/audit-log/, 'YNNYNN', '03 §6 /activity: ITP admin (global), facility admin (facility)'),
  // ---- claims: the edit lock of whoever edits (not in the role tables)
  row(/^(GET|POST|PUT) \/api\/claims/, '??????', 'edit locks; not in the role tables'),
  // ---- case search and create (01 §6 "Case search and create: ITP admin/user, facility admin/user")
  row(/^GET \/api\/cases\/(source-facilities|source-divisions|request-types|payers|providers|search-patient)$/, 'YYNYYN', '01 §6 case search and create'),
  row(/^POST \/api\/cases$/, 'YYNYYN', '01 §6 case search and create'),
  row(/^GET \/api\/patients\/(search|\{id\}\/insurances\/last)$/, 'YYNNNN', '01 §6 search result page ITP only; 02 §6 patients page: ITP user and admin'),
  row(/^GET \/api\/patients\/\{id\}(\/history)?$/, 'YYYNNN', '01 §6 patient history: ITP admin, user, provider; 02 §6 route gate'),
  // ---- case lists (01 §6: partner table ITP admin/user, facility table facility roles, provider list provider)
  row(/^GET \/api\/cases$/, 'YYYYYN', '01 §6 case lists'),
  row(/^GET \/api\/cases\/accepted$/, '??????', 'finalized/accepted cases of referring divisions; roles not stated'),
  row(/^PUT \/api\/cases\/\{id\}\/referring\/confirm$/, '??????', 'referring confirmation; roles not stated'),
  // ---- status control (01 §6 "Case activity status control and change", "Reopen, change outcome": ITP admin, ITP user)
  row(/^(PUT|GET|POST) \/api\/cases\/\{id\}\/(status|close|resume|undo|reopen-status|reopen|change-outcome|close-options)$/, 'YYNNNN', '01 §6 status control; reopen, change outcome'),
  row(/^PUT \/api\/cases\/\{id\}\/(remove-from-accepted|include-out-of-state)$/, 'YY???N', '01 §4 partner staff actions; 01 §6 group user cannot open a case'),
  // ---- requests (01 §6 "Requests view: every role; create by ITP or facility roles; providers handle … only when assigned")
  row(/^PUT \/api\/requests\/\{id\}\/(not-ready-for-evaluation|in-progress|evaluation|evaluation\/start|evaluation\/complete)$/, 'NNYNNN', '01 §6 provider handles his requests; 02 §6 evaluation screen: provider'),
  row(/^(POST \/api\/cases\/\{id\}\/requests|GET \/api\/cases\/\{id\}\/requests\/types|PUT \/api\/cases\/\{id\}\/requests\/\{requestId\}|PUT \/api\/requests\/\{id\}\/cancel)$/, 'YYNYYN', '01 §4/§6 create, edit, cancel: ITP or facility roles, providers neither'),
  row(/^GET \/api\/requests\/\{id\}\/evaluation(\/change-log|\/billing-codes)?$/, 'YYY???', '02 §6 evaluation screen: provider; 01 §6 partner staff read the case; facility roles: the spec does not say'),
  row(/^GET (\/api\/cases\/\{id\}\/requests|\/api\/requests\/\{id\}\/info)$/, 'YYYYY?', '01 §6 requests view: every role (group user cannot open a case)'),
  row(/^GET \/api\/cases\/inpatient-divisions\/\{id\}$/, '??Y??N', '01 §6 provider: inpatient facility list'),
  // ---- case records (01 §6)
  row(/^(GET|POST) \/api\/cases\/\{id\}\/progress-notes$/, 'YYYNNN', '01 §6 progress notes: ITP admin, user, provider'),
  row(/^PUT \/api\/cases\/\{id\}\/medical-information$/, 'YYY??N', '01 §6 medical information edit: ITP roles (02 §6 gives facility roles the card)'),
  row(/^GET \/api\/cases\/\{id\}\/medical-information$/, 'YYYYYN', '01 §6 medical information card; 02 §6 facility roles: medical information card'),
  row(/^GET \/api\/cases\/\{id\}\/medical-information\/logs$/, 'YYY??N', '01 §6 medical information: ITP roles (its change log is not named for facility roles)'),
  row(/^GET \/api\/diagnoses$/, 'YYY???', '01 §6 medical information edit: ITP roles'),
  row(/^PUT \/api\/cases\/\{id\}\/tags$/, 'YYYNNN', '01 §6 tags: ITP admin, user, provider'),
  row(/^POST \/api\/cases\/\{id\}\/vitals$/, 'YYYYYN', '01 §6 vitals add: ITP and facility roles'),
  row(/^POST \/api\/cases\/\{id\}\/notes$/, 'YYYYYN', '01 §6 case notes: all five staff roles (not referring divisions)'),
  row(/^POST \/api\/cases\/\{id\}\/notes\/\{noteId\}$/, 'YY?NNN', '01 §6 ITP staff hide or unhide notes of ITP authors; 01 §4 only partner staff see hidden notes'),
  row(/^(PUT|DELETE) \/api\/cases\/\{id\}\/notes\/\{noteId\}$/, '???YYN', '01 §6 facility users edit or remove facility notes'),
  row(/^POST \/api\/cases\/\{id\}\/files\/\{fileId\}\/hidden$/, 'YY?NNN', '02 §6 hide/unhide files: ITP user and admin'),
  row(/^POST \/api\/cases\/\{id\}\/files$/, 'YY?YYN', '02 §6 upload files: ITP user/admin, facility user/admin'),
  row(/^PUT \/api\/cases\/\{id\}\/files\/\{fileId\}$/, '???YYN', '02 §6 facility roles edit files they submitted'),
  row(/^GET \/api\/cases\/\{id\}\/summary\/pdf$/, 'YYYYNN', '01 §6 summary PDF: ITP roles and facility admin'),
  row(/^GET \/api\/cases\/\{id\}\/patient\/logs$/, 'YYYYYN', '01 §6 patient log: ITP and facility roles'),
  row(/^(GET|PUT|POST|DELETE) \/api\/cases\/\{id\}\/insurances\/uninsured$/, 'YY?YYN', '01 §6 uninsured toggle: facility and ITP roles'),
  row(/^(GET|PUT|POST|DELETE) \/api\/cases\/\{id\}\/insurances/, 'YYNYYN', '01 §6 insurance display and edit: ITP admin/user, insurances page facility admin/user'),
  // ---- placement (02 §6: ITP user and admin — placements view, queue, claim tasks, undo calls, call log)
  row(/^(GET|POST|PUT) \/api\/(cases\/\{id\}\/placements|placement-tasks\/(division|generate|create|claim|\{taskId\}))/, 'YYNNNN', '02 §6 placements, claim tasks, undo calls, call log: ITP user and admin'),
  row(/^GET \/api\/placement-tasks\/log\/\{caseId\}/, 'YY???N', '02 §6 case placements view: ITP user and admin'),
  // ---- the rest of a case: "Case details: everyone except group user" (01 §6, 02 §6, 03 §6)
  row(/^(GET|PUT|POST|DELETE) \/api\/cases\/\{id\}(\/|$)/, '?????N', '01 §6 case details: everyone except group user'),
];

/**
 * Where the API answers otherwise than the spec row says (`METHOD path ROLE: spec → got`).
 * Each is a disagreement to settle in the API or the spec; the test fails if this list is not
 * exactly what the API does today.
 */
const KNOWN_GAPS: string[] = [];

afterAll(() => db.end());

describe('authorization matrix (expected answers from the spec)', () => {
  let routes: RouteInfo[];
  const sessions = new Map<Role, { token: string; ctx: UserContext }>();
  let anyFacilityId: number;

  beforeAll(async () => {
    routes = await listRoutes();
    for (const role of ROLES) {
      const { accessToken } = await signInAs(ROLE_OF[role]);
      const ctx = (await api<UserContext>('GET', '/api/user/context', { token: accessToken })).body;
      sessions.set(role, { token: accessToken, ctx });
    }
    anyFacilityId = (await db.query('SELECT min(id) AS id FROM facilities')).rows[0].id;
  });

  const key = (r: RouteInfo) => `${r.method} ${r.path}`;
  const specRow = (r: RouteInfo) => SPEC.find((s) => s.route.test(key(r)));

  /** A path a role may reach: its own facility's ids where the route is about a facility, an unknown id elsewhere. */
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

  it('has a spec row for every route of the API, and every row still matches a route', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((r) => !r.isPublic && !specRow(r)).map(key)).toEqual([]);
    expect(SPEC.filter((s) => !routes.some((r) => !r.isPublic && s.route.test(key(r)))).map((s) => String(s.route))).toEqual([]);
    for (const s of SPEC) expect([String(s.route), /^[YN?]{6}$/.test(s.roles)]).toEqual([String(s.route), true]);
  });

  it('refuses every guarded route without a token (401 UNAUTH) and serves the public ones', async () => {
    expect(routes.filter((r) => r.isPublic).map(key).sort()).toEqual(['GET /api/demo-tools/outbox', 'GET /api/health', 'GET /api/settings']);
    for (const route of routes) {
      const res = await api(route.method, route.path.replace(/\{[^}]+\}/g, '1'), { body: route.method === 'GET' ? undefined : {} });
      const expected = route.isPublic ? [200, undefined] : [401, 'UNAUTH'];
      expect([key(route), res.status, res.error?.code]).toEqual([key(route), ...expected]);
    }
  });

  it('answers each role as the spec says, apart from the known gaps', async () => {
    const gaps: string[] = [];
    let checked = 0;
    for (const route of routes.filter((r) => !r.isPublic)) {
      const s = specRow(route)!;
      for (const [i, role] of ROLES.entries()) {
        const want = s.roles[i] as Answer;
        if (want === '?') continue;
        const { token, ctx } = sessions.get(role)!;
        const res = await api(route.method, await pathFor(route, ctx), { token, body: route.method === 'GET' ? undefined : {} });
        checked++;
        const refused = res.status === 403 && res.error?.code === 'FRBD';
        const served = res.status !== 401 && res.status !== 403 && res.status < 500;
        if (want === 'Y' && !served) gaps.push(`${key(route)} ${role}: spec allows, got ${res.status} ${res.error?.code ?? ''}`.trim());
        if (want === 'N' && !refused) gaps.push(`${key(route)} ${role}: spec refuses, got ${res.status} ${res.error?.code ?? ''}`.trim());
      }
    }
    expect(checked).toBeGreaterThan(600);
    expect(gaps.sort()).toEqual([...KNOWN_GAPS].sort());
  });
});

describe('row scope: ids of cases and facilities a user may not open', () => {
  let tampa: { facilityId: number; divisionId: number };
  let savannah: { facilityId: number; caseId: number };
  let providerId: number;
  let tokens: Record<'itp' | 'facilityAdmin' | 'facilityUser' | 'provider' | 'referring', string>;

  /** Sub-routes of a case that read or change it (each must be refused on a case out of scope). */
  const CASE_ROUTES: Array<[string, string, unknown?]> = [
    ['GET', ''],
    ['GET', '/requests'],
    ['GET', '/activity'],
    ['GET', '/vitals'],
    ['GET', '/notes'],
    ['GET', '/files'],
    ['GET', '/insurances'],
    ['GET', '/medical-information'],
    ['GET', '/patient/logs'],
    ['POST', '/notes', { note: 'out of scope' }],
  ];
  /** Every answer of `token` on the case's routes that is not a refusal (403, or 404 hiding the case). */
  async function leaks(token: string, caseId: number): Promise<string[]> {
    const out: string[] = [];
    for (const [method, sub, body] of CASE_ROUTES) {
      const res = await api(method, `/api/cases/${caseId}${sub}`, { token, body });
      if (res.status !== 403 && res.status !== 404) out.push(`${method} /api/cases/${caseId}${sub}: ${res.status}`);
    }
    return out;
  }

  beforeAll(async () => {
    const t = (await db.query(
      `SELECT f.id AS "facilityId", d.id AS "divisionId" FROM facilities f JOIN divisions d ON d.facility_id = f.id
        WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
    )).rows[0];
    tampa = t;
    savannah = (await db.query(
      `SELECT f.id AS "facilityId", min(c.id) AS "caseId" FROM facilities f JOIN cases c ON c.source_facility_id = f.id
        WHERE f.name = 'Savannah Coastal Medical Center' GROUP BY f.id`,
    )).rows[0];
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    tokens = {
      itp: (await signInAs('IntegratedTelehealthPartners_User')).accessToken,
      facilityAdmin: (await signInAs('Facility_Admin')).accessToken, // Tampa's admin
      facilityUser: (await signInAs('Facility_User')).accessToken, // Tampa's emergency department
      provider: (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken,
      referring: (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken,
    };
  });

  it('keeps another facility\'s case from a facility admin and a facility user', async () => {
    expect(savannah.caseId).toEqual(expect.any(Number));
    expect(await leaks(tokens.facilityAdmin, savannah.caseId)).toEqual([]);
    expect(await leaks(tokens.facilityUser, savannah.caseId)).toEqual([]);
    // Control: the ITP user opens it.
    expect((await api('GET', `/api/cases/${savannah.caseId}`, { token: tokens.itp })).status).toBe(200);
  });

  it('keeps another facility\'s settings from a facility admin', async () => {
    const other = savannah.facilityId;
    const refused = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, { token: tokens.facilityAdmin, body });
      return [method, path, [403, 404].includes(res.status)];
    };
    for (const [method, path, body] of [
      ['GET', `/api/facilities/${other}`],
      ['GET', `/api/facilities/${other}/divisions`],
      ['PUT', `/api/facilities/${other}/settings/mfa`, { isMfaEnabled: false }],
      ['GET', `/api/facilities/${other}/external-login-provider-settings`],
    ] as Array<[string, string, unknown?]>)
      expect(await refused(method, path, body)).toEqual([method, path, true]);
    // Control: her own facility.
    expect((await api('GET', `/api/facilities/${tampa.facilityId}`, { token: tokens.facilityAdmin })).status).toBe(200);
  });

  it('keeps a case not granted to his division from a referring facility user, and shows him a granted one', async () => {
    const c = await createCase({ token: tokens.itp, facilityId: tampa.facilityId, divisionId: tampa.divisionId, providerId });
    expect(await leaks(tokens.referring, c.id)).toEqual([]);
    const granted = (await db.query(
      `SELECT a.case_id AS id FROM case_referring_access a JOIN divisions d ON d.id = a.division_id
        WHERE d.name = 'Adult Inpatient Unit' AND a.removed_at IS NULL ORDER BY a.case_id LIMIT 1`,
    )).rows[0];
    expect((await api('GET', `/api/cases/${granted.id}`, { token: tokens.referring })).status).toBe(200);
  });

  it('lets a provider open any case (case-scope.ts) but not work a request that is not assigned to him', async () => {
    // A case from the emergency department's facility user: its request is assigned to no provider.
    const c = await createCase({ token: tokens.facilityUser, facilityId: tampa.facilityId, divisionId: tampa.divisionId, providerId: null, body: { sourceFacilityId: undefined, sourceDivisionId: undefined } });
    const request = (await db.query('SELECT id, evaluation_provider_id FROM requests WHERE case_id = $1', [c.id])).rows[0];
    expect(request.evaluation_provider_id).toBeNull();
    expect((await api('GET', `/api/cases/${c.id}`, { token: tokens.provider })).status).toBe(200);
    // Opening the case moves only a Pending request assigned to him (spec 01 §4): here nothing moves.
    await api('PUT', `/api/requests/${request.id}/in-progress`, { token: tokens.provider });
    expect((await db.query('SELECT status FROM requests WHERE id = $1', [request.id])).rows[0].status).toBe('New');
    // Working it is refused (01 §6 "only when assigned").
    for (const step of ['evaluation/start', 'evaluation/complete']) {
      const body = step === 'evaluation/complete' ? { sourceDivisionId: tampa.divisionId, version: 0 } : undefined;
      const res = await api('PUT', `/api/requests/${request.id}/${step}`, { token: tokens.provider, body });
      expect([step, res.status, res.error?.code]).toEqual([step, 403, 'FRBD']);
    }
    // Not ready needs an InProgress request: this New one is refused on that ground first.
    const notReady = await api('PUT', `/api/requests/${request.id}/not-ready-for-evaluation`, { token: tokens.provider, body: { reason: 'x' } });
    expect([403, 409]).toContain(notReady.status);
    const after = (await db.query('SELECT status FROM requests WHERE id = $1', [request.id])).rows[0];
    expect(after.status).toBe('New');
  });
});
