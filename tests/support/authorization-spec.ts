import type { UserContext, UserType } from '@crisis/forms';
import { api, type ApiResponse } from './api';
import { createCase } from './cases';
import { db } from './db';
import { signIn, signInAs } from './oidc-client';
import { routeKey, type RouteInfo } from './openapi-routes';

/**
 * The authorization table, with its expected answers written by hand from the spec's role tables
 * (spec 01 §6, 02 §6, 03 §6), not read from the ability table in forms/ that the API enforces.
 * Read by tests/integration/authorization-matrix.test.ts and tests/battery/authorization.battery.ts,
 * so both check the same table.
 *
 * Every route of the API (from the OpenAPI document) must match a row of SPEC below, so a new
 * route fails the test until someone writes down who may call it. Per role a row says
 *   Y  the spec grants it: the call is never 401/403 (it may be a 400 for the empty body, a 404
 *      for the unknown id) and never a 500;
 *   N  the spec does not grant it: 403 FRBD;
 *   ?  the spec says nothing either way (not checked; listed in the row's `note`).
 * Where the API disagrees with the spec, the row still says what the spec says, and the
 * disagreement is listed in KNOWN_GAPS: the test asserts the current disagreements are exactly
 * those, so fixing one (or adding one) makes it fail until the list is updated.
 *
 * Row scope (ARCHITECTURE; api/src/cases/case-scope.ts) is the second table, SCOPE_SPEC: ids of
 * rows a role may not open, each cell a call that must be refused (403, or 404 hiding the row),
 * with controls that must be served.
 */

export type Role = 'IA' | 'IU' | 'IP' | 'FA' | 'FU' | 'GU';
export type Answer = 'Y' | 'N' | '?';
export const ROLE_OF: Record<Role, UserType> = {
  IA: 'IntegratedTelehealthPartners_Admin',
  IU: 'IntegratedTelehealthPartners_User',
  IP: 'IntegratedTelehealthPartners_Provider',
  FA: 'Facility_Admin',
  FU: 'Facility_User',
  GU: 'Group_User',
} as Record<Role, UserType>;
export const ROLES = Object.keys(ROLE_OF) as Role[];

export interface Row {
  /** `METHOD path-regex` matched against `METHOD /openapi/path` (first matching row wins). */
  route: RegExp;
  /** Answers in the order IA IU IP FA FU GU, e.g. 'YYNNNN'. */
  roles: string;
  spec: string;
}
const row = (route: RegExp, roles: string, spec: string): Row => ({ route, roles, spec });

export const SPEC: Row[] = [
  // ---- own profile and shared lookups: every signed-in user (the profile menu, address fields)
  row(/^(GET|PUT) \/api\/user\/(context|password)$/, 'YYYYYY', 'every user has a profile (03 §6)'),
  row(/^(GET|PUT) \/api\/user\/profile\/\{id\}$/, 'YYYYYY', 'own profile'),
  row(/^POST \/api\/user\/avatar$|^GET \/api\/avatar\//, 'YYYYYY', 'own profile'),
  row(/^GET \/api\/address\//, 'YYYYYY', 'address fields of every form'),
  row(/^POST \/api\/user\/reset-mfa$/, '??????', 'not in the role tables'),
  // ---- the notification bell: every role's own notifications (02 §2 bell, §7 "Other"; 03 §7)
  row(/^(GET \/api\/user\/getUserNotifications|PUT \/api\/user\/\{id\}\/dismiss-notification)$/, 'YYYYYY', '02 §2 notification bell; 03 §7 user notifications'),
  row(/^(GET|PUT) \/api\/notifications\//, 'YYYYYY', '02 §7 notifications: filtered query, mark read, user look-ups'),
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
  row(
    /^GET \/api\/facilities\/\{id\}(\/divisions(\/lookups|\/\{divisionId\}(\/(credentialed-providers|request-types)\/lookups)?)?)?$/,
    'Y??Y??',
    '03 §6 /facility/settings (own facility), invite form divisions; 03 §7 a division\'s look-ups',
  ),
  row(/^(GET|POST|PUT|DELETE) \/api\/facilities(\/|$)/, 'YNNNNN', '03 §6 /facilities: ITP admin'),
  row(/^(GET|POST|PUT|DELETE) \/api\/evaluation-forms(\/lookups|\/\{id\}(\/facilities|\/clone)?)?$/, 'YNNNNN', '02 §6 evaluation forms pages: ITP admin only; 03 §6 facility evaluation-forms tab: ITP admin'),
  row(/^GET \/api\/group-organizations\/lookups$/, 'Y?????', 'group lookups on the user form'),
  row(/^(GET|POST|PUT) \/api\/group-organizations/, 'YNNNNN', '03 §6 /group-organizations: ITP admin'),
  row(/^GET \/api\/payers\/lookups$/, 'Y?????', 'payer picker of the insurance forms'),
  row(/^GET \/api\/payers\/insurance$/, 'YYNYYN', '01 §5 insurance: payer look-up by plan name, for the insurance editors (01 §6 ITP admin/user, facility admin/user)'),
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
  row(/^GET \/api\/cases\/(search-patient-in-ehr|validate-patientencounter-identifierid\/\{divisionId\}\/\{patientId\}\/\{encounterId\})$/, 'YYNYYN', '01 §5 case creation: EHR patient and encounter look-ups (01 §6 case search and create)'),
  row(/^PUT \/api\/cases\/add-encounteridentifiertocases-in-ehr\/\{caseId\}\/\{encounterId\}$/, 'YY?YYN', '01 §7 add-encounteridentifiertocases-in-ehr: the case\'s editors (ITP staff, its source-side facility users); the provider is not named'),
  row(/^GET \/api\/patients$/, 'YYNNNN', '02 §6 patients page: ITP user and admin'),
  row(/^(GET|POST) \/api\/patients\/merge\//, 'YNNNNN', '02 §6 ITP admin only: duplicate review and merge; 03 §6 patient merge: ITP admin'),
  row(/^GET \/api\/patients\/(search|\{id\}\/insurances\/last)$/, 'YYNNNN', '01 §6 search result page ITP only; 02 §6 patients page: ITP user and admin'),
  row(/^GET \/api\/patients\/\{id\}(\/history)?$/, 'YYYNNN', '01 §6 patient history: ITP admin, user, provider; 02 §6 route gate'),
  // ---- case lists (01 §6: partner table ITP admin/user, facility table facility roles, provider list provider)
  row(/^GET \/api\/cases$/, 'YYYYYN', '01 §6 case lists'),
  // ---- dashboards (02 §2 /dashboard: source-type users' finalized table; partner search box; group panel; provider panel)
  row(/^GET \/api\/cases\/finalized$/, 'NNNYYN', '02 §2 source-type users see a finalized-cases table; 02 §6 facility user/admin: finalized cases table'),
  row(/^GET \/api\/cases\/facility\/requests$/, 'NNNYYN', '01 §7 facility/requests: the facility case table'),
  row(/^GET \/api\/dashboard\/search$/, 'YYNNNN', '02 §2 partner users: search box'),
  row(/^GET \/api\/dashboard\/group$/, 'NNNNNY', '02 §2 group users: group panel; 02 §6 group dashboard panel'),
  row(/^GET \/api\/dashboard\/provider$/, 'NNYNNN', '02 §2 providers: provider panel'),
  row(/^GET \/api\/cases\/accepted$/, '??????', 'finalized/accepted cases of referring divisions; roles not stated'),
  row(/^PUT \/api\/cases\/\{id\}\/referring\/confirm$/, '??????', 'referring confirmation; roles not stated'),
  // ---- past cases (02 §6 "Past cases page: partner admin/user/provider and facility admin"; "Group user: group past cases";
  //      "ITP admin only: billing and Athena diagnostics CSV exports"; 03 §6 facility users: none, the navigation fix)
  row(/^GET \/api\/cases\/past(\/filter-options|\/csv)?$/, 'YYYYNY', '02 §6 past cases: partner admin/user/provider, facility admin, group user; CSV for all'),
  row(/^GET \/api\/cases\/past\/(billing|athena)\/csv$/, 'YNNNNN', '02 §6 ITP admin only: billing and diagnostics CSV exports'),
  row(/^PUT \/api\/cases\/retry$/, 'YNNNNN', '01 §7 retry of an EHR claim; 02 §8 "Audit retry failure": with the ITP admin\'s billing and diagnostics exports'),
  // ---- status control (01 §6 "Case activity status control and change", "Reopen, change outcome": ITP admin, ITP user)
  row(/^(PUT|GET|POST) \/api\/cases\/\{id\}\/(status|close|resume|undo|reopen-status|reopen|change-outcome|close-options)$/, 'YYNNNN', '01 §6 status control; reopen, change outcome'),
  row(/^PUT \/api\/cases\/\{id\}\/(remove-from-accepted|include-out-of-state)$/, 'YY???N', '01 §4 partner staff actions; 01 §6 group user cannot open a case'),
  // ---- requests (01 §6 "Requests view: every role; create by ITP or facility roles; providers handle … only when assigned")
  row(/^PUT \/api\/requests\/\{id\}\/(not-ready-for-evaluation|in-progress|evaluation|evaluation\/start|evaluation\/complete)$/, 'NNYNNN', '01 §6 provider handles his requests; 02 §6 evaluation screen: provider'),
  row(/^(POST \/api\/cases\/\{id\}\/requests|GET \/api\/cases\/\{id\}\/requests\/types|PUT \/api\/cases\/\{id\}\/requests\/\{requestId\}|PUT \/api\/requests\/\{id\}\/cancel)$/, 'YYNYYN', '01 §4/§6 create, edit, cancel: ITP or facility roles, providers neither'),
  row(/^GET \/api\/requests\/\{id\}\/evaluation(\/logs|\/billing-codes)?$/, 'YYY???', '02 §6 evaluation screen: provider; 01 §6 partner staff read the case; facility roles: the spec does not say'),
  // ---- video meeting (01 §4 "Video meeting", 02 §2 "Video evaluation": join buttons for the provider and the facility, the provider recreates)
  row(/^GET \/api\/requests\/\{id\}\/evaluation\/online-meeting$/, 'YYYYYN', '01 §6 requests view: every role (the meeting is part of the request); group user cannot open a case'),
  row(/^POST \/api\/requests\/\{id\}\/evaluation\/online-meeting$/, '??YNNN', '02 §2 the provider has a recreate-meeting action; facility roles join only; partner staff: the spec does not say'),
  row(/^POST \/api\/requests\/\{id\}\/evaluation\/online-meeting\/join$/, 'NNYYYN', '02 §2 join buttons for the provider and for the facility'),
  row(/^GET \/api\/cases\/\{id\}\/requests\/\{requestId\}\/evaluation\/pdf$/, 'YYYYYN', '01 §7 evaluation PDF of a request: as the case PDF with its evaluations (case details: everyone except group user)'),
  row(/^GET \/api\/demo-tools\/meetings$/, 'YYYYYY', '03 §2 a demo-tools area (meetings) for every signed-in user of a demo deployment'),
  row(/^GET (\/api\/cases\/\{id\}\/requests|\/api\/requests\/\{id\}\/info)$/, 'YYYYY?', '01 §6 requests view: every role (group user cannot open a case)'),
  // ---- queues (02 §6: "ITP user and admin: … queue"; "Provider: … provider queue")
  row(/^GET \/api\/requests\/itp-queue$/, 'YYNNNN', '02 §6 ITP user and admin: queue'),
  row(/^GET \/api\/requests\/provider-queue$/, 'NNYNNN', '02 §6 provider: provider queue'),
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
  row(/^(PUT|DELETE) \/api\/cases\/\{id\}\/files\/\{fileId\}$/, '???YYN', '02 §6 facility roles edit and delete files they submitted'),
  row(/^GET \/api\/cases\/\{id\}\/summary\/pdf$/, 'YYYYNN', '01 §6 summary PDF: ITP roles and facility admin'),
  row(/^GET \/api\/cases\/\{id\}\/patient\/logs$/, 'YYYYYN', '01 §6 patient log: ITP and facility roles'),
  row(/^GET \/api\/cases\/patient-periodic-information-in-ehr\/\{caseId\}\/\{encounterId\}$/, 'YYYYYN', '01 §7 patient-periodic-information-in-ehr: the patient card of the case page (case details: everyone except group user)'),
  row(/^(GET|PUT|POST|DELETE) \/api\/cases\/\{id\}\/insurances\/uninsured$/, 'YY?YYN', '01 §6 uninsured toggle: facility and ITP roles'),
  row(/^(GET|PUT|POST|DELETE) \/api\/cases\/\{id\}\/insurances/, 'YYNYYN', '01 §6 insurance display and edit: ITP admin/user, insurances page facility admin/user'),
  // ---- placement (02 §6: ITP user and admin — placements view, queue, claim tasks, undo calls, call log)
  row(/^(GET|POST|PUT) \/api\/(cases\/\{id\}\/placements|placement-tasks\/(division|generate|create|claim|\{taskId\}))/, 'YYNNNN', '02 §6 placements, claim tasks, undo calls, call log: ITP user and admin'),
  row(/^GET \/api\/placement-tasks\/log\/\{caseId\}/, 'YY???N', '02 §6 case placements view: ITP user and admin'),
  // ---- a past case's activity log and export to PDF: group users too (02 §2 "Row actions: activity log, summary PDF, export to PDF (group users)"; 02 §6 "Group user: … export to PDF, activity log")
  row(/^GET \/api\/cases\/\{id\}\/(pdf|activity\/report(\/pdf|\/csv)?)$/, '?????Y', '02 §6 group user: export to PDF, activity log; others as case details'),
  // ---- the rest of a case: "Case details: everyone except group user" (01 §6, 02 §6, 03 §6)
  row(/^(GET|PUT|POST|DELETE) \/api\/cases\/\{id\}(\/|$)/, '?????N', '01 §6 case details: everyone except group user'),
];

/**
 * Where the API answers otherwise than the spec row says (`METHOD path ROLE: spec → got`).
 * Each is a disagreement to settle in the API or the spec; the test fails if this list is not
 * exactly what the API does today.
 */
export const KNOWN_GAPS: string[] = [];


/** The row of SPEC that speaks for a route (first match). */
export const specRowFor = (route: RouteInfo): Row | undefined => SPEC.find((s) => s.route.test(routeKey(route)));

/** A signed-in demo user of each role and what the API says about her. */
export type Sessions = Map<Role, { token: string; ctx: UserContext }>;

export async function signInRoles(): Promise<Sessions> {
  const sessions: Sessions = new Map();
  for (const role of ROLES) {
    const { accessToken } = await signInAs(ROLE_OF[role]);
    const ctx = (await api<UserContext>('GET', '/api/user/context', { token: accessToken })).body;
    sessions.set(role, { token: accessToken, ctx });
  }
  return sessions;
}

/**
 * The facility whose routes roles without one of their own are tried on: one without an EHR
 * connection, since a call the spec grants is served (POST …/ehr-connection/key makes a new key,
 * which the EHR has not registered) and the demo EHR facility's connection must keep working.
 */
export const ANY_FACILITY_SQL = 'SELECT min(id) AS id FROM facilities WHERE id NOT IN (SELECT facility_id FROM facility_ehr_connections)';

/** A path a role may reach: its own facility's ids where the route is about a facility, an unknown id elsewhere. */
export async function pathFor(route: RouteInfo, ctx: UserContext, anyFacilityId: number): Promise<string> {
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

/** The disagreement of one answer with its cell (`METHOD path ROLE: spec …, got …`), or null. */
export function cellGap(route: RouteInfo, role: Role, want: Answer, res: ApiResponse): string | null {
  const refused = res.status === 403 && res.error?.code === 'FRBD';
  const served = res.status !== 401 && res.status !== 403 && res.status < 500;
  if (want === 'Y' && !served) return `${routeKey(route)} ${role}: spec allows, got ${res.status} ${res.error?.code ?? ''}`.trim();
  if (want === 'N' && !refused) return `${routeKey(route)} ${role}: spec refuses, got ${res.status} ${res.error?.code ?? ''}`.trim();
  return null;
}

export interface MatrixResult {
  /** Routes × roles. */
  cells: number;
  /** Cells the spec writes as Y or N, each called once. */
  checked: number;
  /** Cells the spec leaves open (?). */
  unspecified: number;
  gaps: string[];
}

/** Calls every Y and N cell of the table once, as the role's demo user, with an empty body. */
export async function checkMatrix(routes: RouteInfo[], sessions: Sessions, anyFacilityId: number): Promise<MatrixResult> {
  const out: MatrixResult = { cells: 0, checked: 0, unspecified: 0, gaps: [] };
  for (const route of routes.filter((r) => !r.isPublic)) {
    const s = specRowFor(route);
    if (!s) throw new Error(`no spec row for ${routeKey(route)}`);
    for (const [i, role] of ROLES.entries()) {
      out.cells++;
      const want = s.roles[i] as Answer;
      if (want === '?') {
        out.unspecified++;
        continue;
      }
      const { token, ctx } = sessions.get(role)!;
      const res = await api(route.method, await pathFor(route, ctx, anyFacilityId), { token, body: route.method === 'GET' ? undefined : {} });
      out.checked++;
      const gap = cellGap(route, role, want, res);
      if (gap) out.gaps.push(gap);
    }
  }
  return out;
}

/** Every guarded route without a token: 401 UNAUTH; the public ones are served. Returns the disagreements. */
export async function checkAnonymous(routes: RouteInfo[]): Promise<string[]> {
  const gaps: string[] = [];
  for (const route of routes) {
    const res = await api(route.method, route.path.replace(/\{[^}]+\}/g, '1'), { body: route.method === 'GET' ? undefined : {} });
    const ok = route.isPublic ? res.status === 200 : res.status === 401 && res.error?.code === 'UNAUTH';
    if (!ok) gaps.push(`${routeKey(route)} anonymous: ${route.isPublic ? 'public' : 'spec 401 UNAUTH'}, got ${res.status} ${res.error?.code ?? ''}`.trim());
  }
  return gaps;
}

// ------------------------------------------------------------------------------------------------
// Row scope: ids of rows a role may not open
// ------------------------------------------------------------------------------------------------

/** Who tries: a role's demo user, or the referring facility's user (Sunrise Behavioral's intake). */
export type ScopeActor = 'IU' | 'FA' | 'FU' | 'IP' | 'referring';
/** The rows tried (see scopeTargets). */
export type ScopeTarget = 'otherFacilityCase' | 'otherFacility' | 'ownFacility' | 'ungrantedCase' | 'grantedCase' | 'unassignedRequest';

export interface ScopeRow {
  who: ScopeActor[];
  target: ScopeTarget;
  /** [method, path under the target with {id}, body?] */
  calls: Array<[string, string, unknown?]>;
  /** refused: 403 or 404 (hiding the row); refusedFrbd: 403 FRBD; served: 2xx. */
  expect: 'refused' | 'refusedFrbd' | 'served';
  spec: string;
}

/** Sub-routes of a case that read or change it (each must be refused on a case out of scope). */
const CASE_CALLS: Array<[string, string, unknown?]> = [
  ['GET', '/api/cases/{id}'],
  ['GET', '/api/cases/{id}/requests'],
  ['GET', '/api/cases/{id}/activity'],
  ['GET', '/api/cases/{id}/vitals'],
  ['GET', '/api/cases/{id}/notes'],
  ['GET', '/api/cases/{id}/files'],
  ['GET', '/api/cases/{id}/insurances'],
  ['GET', '/api/cases/{id}/medical-information'],
  ['GET', '/api/cases/{id}/patient/logs'],
  ['POST', '/api/cases/{id}/notes', { note: 'out of scope' }],
];

export const SCOPE_SPEC: ScopeRow[] = [
  { who: ['FA', 'FU'], target: 'otherFacilityCase', calls: CASE_CALLS, expect: 'refused', spec: '01 §6 facility staff see their facility\'s cases only' },
  { who: ['IU'], target: 'otherFacilityCase', calls: [['GET', '/api/cases/{id}']], expect: 'served', spec: 'control: the ITP user opens any case' },
  {
    who: ['FA'],
    target: 'otherFacility',
    calls: [
      ['GET', '/api/facilities/{id}'],
      ['GET', '/api/facilities/{id}/divisions'],
      ['PUT', '/api/facilities/{id}/settings/mfa', { isMfaEnabled: false }],
      ['GET', '/api/facilities/{id}/external-login-provider-settings'],
    ],
    expect: 'refused',
    spec: '03 §6 facility admin: own facility\'s settings only',
  },
  { who: ['FA'], target: 'ownFacility', calls: [['GET', '/api/facilities/{id}']], expect: 'served', spec: 'control: her own facility' },
  { who: ['referring'], target: 'ungrantedCase', calls: CASE_CALLS, expect: 'refused', spec: '01 §6 referring divisions see the cases granted to them' },
  { who: ['referring'], target: 'grantedCase', calls: [['GET', '/api/cases/{id}']], expect: 'served', spec: 'control: a case granted to his division' },
  { who: ['IP'], target: 'ungrantedCase', calls: [['GET', '/api/cases/{id}']], expect: 'served', spec: 'a provider opens any case (case-scope.ts)' },
  {
    who: ['IP'],
    target: 'unassignedRequest',
    calls: [
      ['PUT', '/api/requests/{id}/evaluation/start'],
      ['PUT', '/api/requests/{id}/evaluation/complete', { sourceDivisionId: 1, version: 0 }],
      ['POST', '/api/requests/{id}/evaluation/online-meeting', {}],
      ['POST', '/api/requests/{id}/evaluation/online-meeting/join'],
    ],
    expect: 'refusedFrbd',
    spec: '01 §6 providers work requests only when assigned',
  },
];

/** Scope cells where the API answers otherwise (`METHOD path actor target: …`); the tests fail unless exactly these. */
export const KNOWN_SCOPE_GAPS: string[] = [];

export interface ScopeTargets {
  tokens: Record<ScopeActor, string>;
  ids: Record<ScopeTarget, number>;
}

/**
 * The rows of the scope table in the demo world: Savannah's first case and facility (not Tampa's
 * staff's), Tampa (the facility admin's own), a new case of Tampa's medical floor (granted to no
 * referring division), a case granted to Sunrise's Adult Inpatient Unit, and the request of a new
 * case from Tampa's emergency department (assigned to no provider).
 */
export async function scopeTargets(): Promise<ScopeTargets> {
  const tampa = (await db.query(
    `SELECT f.id AS "facilityId", d.id AS "divisionId" FROM facilities f JOIN divisions d ON d.facility_id = f.id
      WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
  )).rows[0];
  const savannah = (await db.query(
    `SELECT f.id AS "facilityId", min(c.id) AS "caseId" FROM facilities f JOIN cases c ON c.source_facility_id = f.id
      WHERE f.name = 'Savannah Coastal Medical Center' GROUP BY f.id`,
  )).rows[0];
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  const tokens: Record<ScopeActor, string> = {
    IU: (await signInAs('IntegratedTelehealthPartners_User' as UserType)).accessToken,
    FA: (await signInAs('Facility_Admin' as UserType)).accessToken, // Tampa's admin
    FU: (await signInAs('Facility_User' as UserType)).accessToken, // Tampa's emergency department
    IP: (await signInAs('IntegratedTelehealthPartners_Provider' as UserType)).accessToken,
    referring: (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken,
  };
  const ungranted = await createCase({ token: tokens.IU, facilityId: tampa.facilityId, divisionId: tampa.divisionId, providerId });
  const granted = (await db.query(
    `SELECT a.case_id AS id FROM case_referring_access a JOIN divisions d ON d.id = a.division_id
      WHERE d.name = 'Adult Inpatient Unit' AND a.removed_at IS NULL ORDER BY a.case_id LIMIT 1`,
  )).rows[0];
  const unassigned = await createCase({ token: tokens.FU, providerId: null, body: { sourceFacilityId: undefined, sourceDivisionId: undefined } });
  return {
    tokens,
    ids: {
      otherFacilityCase: savannah.caseId,
      otherFacility: savannah.facilityId,
      ownFacility: tampa.facilityId,
      ungrantedCase: ungranted.id,
      grantedCase: granted.id,
      unassignedRequest: unassigned.requestId,
    },
  };
}

export interface ScopeResult {
  checked: number;
  gaps: string[];
}

/** Calls every cell of SCOPE_SPEC once. */
export async function checkScope(t: ScopeTargets): Promise<ScopeResult> {
  const out: ScopeResult = { checked: 0, gaps: [] };
  for (const row of SCOPE_SPEC)
    for (const who of row.who)
      for (const [method, template, body] of row.calls) {
        const path = template.replace('{id}', String(t.ids[row.target]));
        const res = await api(method, path, { token: t.tokens[who], body });
        out.checked++;
        const ok =
          row.expect === 'served' ? res.status >= 200 && res.status < 300
          : row.expect === 'refusedFrbd' ? res.status === 403 && res.error?.code === 'FRBD'
          : res.status === 403 || res.status === 404;
        if (!ok) out.gaps.push(`${method} ${template} ${who} ${row.target}: spec ${row.expect}, got ${res.status} ${res.error?.code ?? ''}`.trim());
      }
  return out;
}
