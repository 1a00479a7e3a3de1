/**
 * The load battery: many ITP coordinators at once, each doing a coordinator's day in fast
 * forward. Each signs in through the identity server, holds a live channel (socket.io) on her
 * own case, and in a loop with short pauses: opens a case page, reads the case list, writes a
 * note, changes her case's status (on hold with a note, then back), logs calls on a referring
 * division she claims (when nobody else holds it), now and then creates a case. Her live channel
 * is cut now and then (the network drops it) and must reconnect by itself.
 *
 * Checks: every write the API acknowledged is in the database, no answer is a 5xx (or a dropped
 * connection), and every case.updated event of her own case arrives while her channel is up.
 * Figures: requests and p50 / p95 / p99 per kind of request, live events expected and received,
 * reconnects.
 *
 * Full (npm run battery): 200 coordinators for 10 minutes. Quick sample (npm test): 20 for 30 s.
 * LOAD_COORDINATORS and LOAD_SECONDS change either.
 */
import { io, type Socket } from 'socket.io-client';
import { UserType, isOnHold } from '@crisis/forms';
import { db } from '../support/db';
import { contactingCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { API_URL as OIDC_API_URL, refresh, signIn, signInAs, type SignInResult } from '../support/oidc-client';
import { isOk, percentile, sleep, timedApi, type TimedResponse } from '../support/timed-api';
import { QUICK, writeReport, type BatteryCheck, type BatteryReport } from './support';

const COORDINATORS = Number(process.env.LOAD_COORDINATORS) || (QUICK ? 20 : 200);
const SECONDS = Number(process.env.LOAD_SECONDS) || (QUICK ? 30 : 600);
/** The pause between two actions of one coordinator (a person reads, types, thinks). */
const THINK_MS: [number, number] = QUICK ? [300, 1_200] : [2_000, 6_000];
/** How often a coordinator's live channel is cut. */
const CUT_EVERY_MS: [number, number] = QUICK ? [6_000, 14_000] : [30_000, 90_000];
const PLACEMENT_CASES = QUICK ? 4 : 20;
const RUN = uniqueLetters();
const between = ([a, b]: [number, number]) => a + Math.random() * (b - a);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

const latencies = new Map<string, number[]>();
const clientErrors = new Map<string, number>();
const serverErrors: string[] = [];
const dropped: string[] = [];

/** One request of a kind ('PUT status'…), timed; 5xx and dropped connections are remembered. */
async function call<T = any>(kind: string, method: string, path: string, opts: { token: string; body?: unknown }): Promise<TimedResponse<T>> {
  const r = await timedApi<T>(method, path, { ...opts, timeoutMs: 60_000 });
  if (!latencies.has(kind)) latencies.set(kind, []);
  latencies.get(kind)!.push(r.ms);
  if (r.status >= 500) serverErrors.push(`${kind}: ${r.status} ${r.code ?? ''}`);
  else if (r.status === 0) dropped.push(`${kind}: ${r.code}`);
  else if (r.status >= 400) clientErrors.set(`${kind} ${r.status} ${r.code ?? ''}`.trim(), (clientErrors.get(`${kind} ${r.status} ${r.code ?? ''}`.trim()) ?? 0) + 1);
  return r;
}

/** What was acknowledged, to be found in the database afterwards. */
const acknowledged = {
  notes: [] as string[],
  statusNotes: [] as string[],
  resumes: new Map<number, number>(),
  calls: [] as string[],
  cases: [] as number[],
};

const live = { expected: 0, received: 0, cuts: 0, reconnects: 0, reconnectMs: [] as number[], refused: 0, otherDrops: 0, notBack: 0 };

// ---------------------------------------------------------------------------------------------
// A coordinator
// ---------------------------------------------------------------------------------------------

interface World {
  facilityId: number;
  edId: number;
  providerId: number;
  placementCases: number[];
  divisions: number[];
}

const caseBody = (lastName: string, w: World) => ({
  patient: {
    firstName: `Load${uniqueLetters()}`,
    lastName,
    dateOfBirth: '1979-06-14',
    gender: 'Female',
    address: { streetLine: '9 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' },
  },
  sourceFacilityId: w.facilityId,
  sourceDivisionId: w.edId,
  evaluationProviderId: w.providerId,
  contactPhoneNumber: '+18135550199',
  notificationSendingMethod: 'PhoneCall',
  requestType: 'Assessment',
  patientEpicId: 'E1002',
  encounterIdentifier: 'ENC-2002',
  uninsured: true,
});

class Coordinator {
  private session!: SignInResult;
  private expiresAt = 0;
  private caseId = 0;
  private status = '';
  private socket?: Socket;
  /** The channel is joined to her case's room since this time (null: not joined). */
  private joinedSince: number | null = null;
  private cuts: number[] = [];
  private cutAt: number | null = null;
  /** Versions of her case the API acknowledged while the channel was up, and the events seen. */
  private awaited: Array<{ version: number; sentAt: number; ackedAt: number }> = [];
  private seen = new Set<number>();
  private n = 0;

  constructor(
    private readonly email: string,
    private readonly world: World,
  ) {}

  /** The access token, renewed with the refresh token a minute before it lapses. */
  private async token(): Promise<string> {
    if (Date.now() > this.expiresAt - 60_000) {
      const t0 = performance.now();
      const next = await refresh(this.session.refreshToken);
      record('token refresh', performance.now() - t0);
      this.session = { ...this.session, ...next };
      this.expiresAt = Date.now() + next.expiresIn * 1000;
    }
    return this.session.accessToken;
  }

  async signIn() {
    const t0 = performance.now();
    this.session = await signIn({ email: this.email, password: 'Demo1234!' });
    record('sign-in (identity flow)', performance.now() - t0);
    this.expiresAt = Date.now() + this.session.expiresIn * 1000;
    const created = await call('POST /api/cases', 'POST', '/api/cases', { token: await this.token(), body: caseBody(`Coordinator`, this.world) });
    if (created.status !== 201) throw new Error(`case not created: ${created.status} ${JSON.stringify(created.body)}`);
    this.caseId = created.body.id;
    this.status = created.body.status;
    acknowledged.cases.push(this.caseId);
  }

  connect() {
    const socket = io(OIDC_API_URL, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: (cb) => void this.token().then((token) => cb({ token }), () => cb({})),
      reconnectionDelay: 300,
      reconnectionDelayMax: 3_000,
    });
    this.socket = socket;
    socket.on('ready', () => {
      if (this.cutAt !== null) {
        live.reconnects++;
        live.reconnectMs.push(Date.now() - this.cutAt);
        this.cutAt = null;
      }
      socket.emit('case.join', { caseId: this.caseId }, (ack: { joined: boolean }) => {
        if (ack?.joined) this.joinedSince = Date.now();
      });
    });
    socket.on('unauthorized', () => live.refused++);
    socket.on('disconnect', (reason) => {
      this.joinedSince = null;
      this.cuts.push(Date.now());
      // Dropped by the server or the network rather than by us: counted, and timed like a cut.
      if (this.cutAt === null && reason !== 'io client disconnect') {
        live.otherDrops++;
        this.cutAt = Date.now();
      }
    });
    socket.on('case.updated', (data: { caseId: number; version: number }) => {
      if (data?.caseId === this.caseId) this.seen.add(data.version);
    });
  }

  /** The network drops the channel: socket.io must reconnect and the page rejoin its case. */
  private cut() {
    if (!this.socket?.connected) return;
    live.cuts++;
    this.cutAt = Date.now();
    (this.socket.io as any).engine?.close();
  }

  async run(until: number) {
    let nextCut = Date.now() + between(CUT_EVERY_MS);
    while (Date.now() < until) {
      if (Date.now() >= nextCut) {
        this.cut();
        nextCut = Date.now() + between(CUT_EVERY_MS);
      }
      const r = Math.random();
      if (r < 0.3) await this.openCase();
      else if (r < 0.4) await call('GET /api/cases (list)', 'GET', `/api/cases?range=${encodeURIComponent('[0,24]')}`, { token: await this.token() });
      else if (r < 0.6) await this.writeNote();
      else if (r < 0.75) await this.changeStatus();
      else if (r < 0.95) await this.logCalls();
      else await this.createCase();
      await sleep(between(THINK_MS));
    }
  }

  private async openCase() {
    const id = Math.random() < 0.5 ? this.caseId : pick(this.world.placementCases);
    const token = await this.token();
    await call('GET /api/cases/:id', 'GET', `/api/cases/${id}`, { token });
    await call('GET /api/cases/:id/notes', 'GET', `/api/cases/${id}/notes`, { token });
    if (id !== this.caseId) await call('GET /api/cases/:id/placements', 'GET', `/api/cases/${id}/placements`, { token });
  }

  private async writeNote() {
    const id = Math.random() < 0.5 ? this.caseId : pick(this.world.placementCases);
    const note = `load-${RUN}-note-${this.email}-${++this.n}`;
    const r = await call('POST /api/cases/:id/notes', 'POST', `/api/cases/${id}/notes`, { token: await this.token(), body: { note } });
    if (isOk(r)) acknowledged.notes.push(note);
  }

  /** Her case goes on hold (with a note) and back (resume), by turns. */
  private async changeStatus() {
    const joined = this.joinedSince;
    const sentAt = Date.now();
    let r: TimedResponse;
    if (!isOnHold(this.status)) {
      const note = `load-${RUN}-status-${this.email}-${++this.n}`;
      const target = pick(['OnHold_WaitingForPatient', 'OnHold_Other', 'OnHold_MissingDocumentation']);
      r = await call('PUT /api/cases/:id/status', 'PUT', `/api/cases/${this.caseId}/status`, {
        token: await this.token(),
        body: { status: target, note, expectedStatus: this.status },
      });
      if (isOk(r)) acknowledged.statusNotes.push(note);
    } else {
      r = await call('PUT /api/cases/:id/resume', 'PUT', `/api/cases/${this.caseId}/resume`, { token: await this.token() });
      if (isOk(r)) acknowledged.resumes.set(this.caseId, (acknowledged.resumes.get(this.caseId) ?? 0) + 1);
    }
    if (isOk(r)) {
      this.status = r.body.state.status;
      // An event is awaited when the channel was in the room before the change was sent.
      if (joined !== null && joined <= sentAt) this.awaited.push({ version: r.body.state.version, sentAt, ackedAt: Date.now() });
    } else if (r.status === 409) {
      const rows = (await db.query('SELECT status FROM cases WHERE id = $1', [this.caseId])).rows;
      this.status = rows[0].status;
    }
  }

  /** Claims a division (refused when another coordinator holds it), logs one or two calls, releases it. */
  private async logCalls() {
    const divisionId = pick(this.world.divisions);
    const token = await this.token();
    const claimed = await call('POST claim division', 'POST', `/api/placement-tasks/division/${divisionId}/claim`, { token, body: {} });
    if (!isOk(claimed)) return;
    const claimId = claimed.body.claimId as number;
    try {
      const log = await call('GET call log', 'GET', `/api/placement-tasks/claim/${claimId}`, { token });
      const tasks = (isOk(log) ? (log.body.tasks as Array<{ id: number; caseId: number }>) : []).filter((t) => this.world.placementCases.includes(t.caseId));
      if (!tasks.length) return;
      const chosen = [...tasks].sort(() => Math.random() - 0.5).slice(0, 1 + Math.floor(Math.random() * 2));
      const notes = chosen.map(() => `load-${RUN}-call-${this.email}-${++this.n}`);
      const r = await call('PUT call log (submit)', 'PUT', `/api/placement-tasks/claim/${claimId}/calls`, {
        token,
        body: { calls: chosen.map((t, i) => ({ placementTaskId: t.id, result: pick(['NoAnswer', 'LeftVoicemail']), note: notes[i] })) },
      });
      if (isOk(r)) acknowledged.calls.push(...notes);
    } finally {
      await call('PUT release claim', 'PUT', `/api/placement-tasks/claim/${claimId}/release`, { token });
    }
  }

  private async createCase() {
    const r = await call('POST /api/cases', 'POST', '/api/cases', { token: await this.token(), body: caseBody('Walkin', this.world) });
    if (r.status === 201) acknowledged.cases.push(r.body.id);
  }

  /** After the run: which awaited events came, counted only while the channel stayed up. */
  settle() {
    for (const a of this.awaited) {
      if (this.cuts.some((t) => t >= a.sentAt && t <= a.ackedAt + 3_000)) continue; // cut meanwhile: not measurable
      live.expected++;
      if (this.seen.has(a.version)) live.received++;
    }
    if (this.cutAt !== null && Date.now() - this.cutAt > 10_000) live.notBack++;
    this.socket?.close();
  }
}

function record(kind: string, ms: number) {
  if (!latencies.has(kind)) latencies.set(kind, []);
  latencies.get(kind)!.push(ms);
}

/** Runs `fn` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const checks: BatteryCheck[] = [];
  const figures: BatteryReport['figures'] = {};

  // The coordinators: ITP users with the demo password (the demo coordinator's hash).
  const emails = Array.from({ length: COORDINATORS }, (_, i) => `load-${RUN}-${i + 1}@itp.example.org`);
  await db.query(
    `INSERT INTO users (first_name, last_name, email, password_hash, email_confirmed, organization_type, user_type)
     SELECT 'Load', 'Coordinator ' || i, e, (SELECT password_hash FROM users WHERE email = 'coordinator@itp.example.org'), true,
            'IntegratedTelehealthPartners', 'IntegratedTelehealthPartners_User'
       FROM unnest($1::text[]) WITH ORDINALITY AS x(e, i)`,
    [emails],
  );

  // The cases being placed, whose tasks the coordinators call about; made while they sign in.
  const [itp, provider] = await Promise.all([signInAs(UserType.ItpUser), signInAs(UserType.ItpProvider)]);
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id as number;
  const { facilityId, edId, floorId } = await tampaDivisions();
  const world: World = { facilityId, edId, providerId, placementCases: [], divisions: [] };
  const placing = inBatches(Array.from({ length: PLACEMENT_CASES }), 4, async () => {
    world.placementCases.push(
      await contactingCase({ token: itp.accessToken, providerToken: provider.accessToken, facilityId, divisionId: floorId, providerId, patient: { lastName: 'Placement' } }),
    );
  });

  const people = emails.map((e) => new Coordinator(e, world));
  const signInStarted = Date.now();
  await inBatches(people, 10, (p) => p.signIn());
  const signInSeconds = (Date.now() - signInStarted) / 1000;
  await placing;
  world.divisions = (
    await db.query('SELECT DISTINCT division_id FROM placement_tasks WHERE case_id = ANY($1::int[]) ORDER BY 1', [world.placementCases])
  ).rows.map((r) => r.division_id as number);
  const { placementCases, divisions } = world;
  people.forEach((p) => p.connect());
  console.log(`load: ${COORDINATORS} coordinators signed in (${signInSeconds.toFixed(1)} s), ${placementCases.length} cases being placed, ${divisions.length} divisions; running ${SECONDS} s`);

  const runStarted = Date.now();
  const until = runStarted + SECONDS * 1000;
  await Promise.all(people.map(async (p, i) => {
    await sleep((i / people.length) * Math.min(5_000, SECONDS * 100)); // a staggered start
    await p.run(until);
  }));
  const runSeconds = (Date.now() - runStarted) / 1000;
  await sleep(1_500); // the last live events
  people.forEach((p) => p.settle());

  // Every acknowledged write, looked up.
  const countIn = async (sql: string, values: unknown[]) => Number((await db.query(sql, [values])).rows[0].n);
  const found = {
    notes: await countIn('SELECT count(DISTINCT note)::int AS n FROM case_notes WHERE note = ANY($1::text[])', acknowledged.notes),
    statusNotes: await countIn('SELECT count(DISTINCT note)::int AS n FROM case_activities WHERE note = ANY($1::text[])', acknowledged.statusNotes),
    calls: await countIn('SELECT count(DISTINCT note)::int AS n FROM placement_calls WHERE note = ANY($1::text[])', acknowledged.calls),
    cases: await countIn('SELECT count(*)::int AS n FROM cases WHERE id = ANY($1::int[])', acknowledged.cases),
  };
  const resumeRows = new Map<number, number>(
    (
      await db.query(`SELECT case_id, count(*)::int AS n FROM case_activities WHERE kind = 'resume' AND case_id = ANY($1::int[]) GROUP BY case_id`, [
        [...acknowledged.resumes.keys()],
      ])
    ).rows.map((r) => [r.case_id, r.n]),
  );
  const resumesAcked = [...acknowledged.resumes.values()].reduce((a, b) => a + b, 0);
  const resumesFound = [...acknowledged.resumes].reduce((n, [caseId, acked]) => n + Math.min(acked, resumeRows.get(caseId) ?? 0), 0);
  const ackedTotal = acknowledged.notes.length + acknowledged.statusNotes.length + resumesAcked + acknowledged.calls.length + acknowledged.cases.length;
  const foundTotal = found.notes + found.statusNotes + resumesFound + found.calls + found.cases;

  const requests = [...latencies.values()].reduce((n, l) => n + l.length, 0);
  const ms = (v: number) => `${Math.round(v)} ms`;
  figures.run = {
    coordinators: COORDINATORS,
    seconds: Math.round(runSeconds),
    requests,
    requestsPerSecond: (requests / runSeconds).toFixed(1),
    '5xx': serverErrors.length,
    droppedConnections: dropped.length,
    signInSeconds: signInSeconds.toFixed(1),
  };
  figures.latency = Object.fromEntries(
    [...latencies].sort(([a], [b]) => a.localeCompare(b)).map(([kind, l]) => [kind, `n=${l.length} p50 ${ms(percentile(l, 50))} p95 ${ms(percentile(l, 95))} p99 ${ms(percentile(l, 99))}`]),
  );
  figures.writes = {
    notes: `${acknowledged.notes.length} acknowledged / ${found.notes} found`,
    'status changes': `${acknowledged.statusNotes.length} acknowledged / ${found.statusNotes} found`,
    resumes: `${resumesAcked} acknowledged / ${resumesFound} found`,
    'call-log entries': `${acknowledged.calls.length} acknowledged / ${found.calls} found`,
    cases: `${acknowledged.cases.length} acknowledged / ${found.cases} found`,
  };
  figures.live = {
    'case.updated expected (channel up)': live.expected,
    received: live.received,
    'channels cut': live.cuts,
    'dropped otherwise': live.otherDrops,
    reconnects: live.reconnects,
    'reconnect p50': ms(percentile(live.reconnectMs, 50)),
    'reconnect p95': ms(percentile(live.reconnectMs, 95)),
    'handshakes refused': live.refused,
  };
  if (clientErrors.size) figures['4xx (refusals)'] = Object.fromEntries(clientErrors);

  checks.push({
    name: 'every write the API acknowledged is in the database (0 lost)',
    ok: ackedTotal > 0 && foundTotal === ackedTotal,
    detail: `${ackedTotal} acknowledged, ${foundTotal} found, ${ackedTotal - foundTotal} lost`,
  });
  checks.push({
    name: 'no 5xx answer and no dropped connection',
    ok: serverErrors.length === 0 && dropped.length === 0 && requests > 0,
    detail: `${requests} requests, ${serverErrors.length} × 5xx, ${dropped.length} dropped` +
      ([...serverErrors, ...dropped].length ? ` (${[...new Set([...serverErrors, ...dropped])].slice(0, 5).join('; ')})` : ''),
  });
  checks.push({
    name: 'every case.updated event of her own case reaches a coordinator whose channel is up',
    ok: live.expected > 0 && live.received === live.expected,
    detail: `${live.expected} expected, ${live.received} received`,
  });
  checks.push({
    name: 'a cut live channel reconnects by itself',
    ok: live.cuts > 0 && live.notBack === 0 && live.refused === 0,
    detail: `${live.cuts} cut, ${live.otherDrops} dropped otherwise, ${live.reconnects} reconnected, ${live.notBack} not back after 10 s, ${live.refused} handshakes refused`,
  });
  figures.seconds = Math.round((Date.now() - started) / 1000);
  writeReport({ name: 'load', checks, figures });
  await db.end().catch(() => undefined);
  process.exit(process.exitCode ?? 0);
}

main().catch(async (err) => {
  console.error(err);
  writeReport({ name: 'load', checks: [{ name: 'the load battery ran', ok: false, detail: String(err?.message ?? err) }], figures: {} });
  await db.end().catch(() => undefined);
  process.exit(1);
});
