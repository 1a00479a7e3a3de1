/**
 * The kill -9 battery: under a steady stream of writes from several clients (case notes, status
 * changes through the case workflow, call-log entries with callbacks on placement tasks), the
 * worker, the Temporal server, PostgreSQL and the API are killed with SIGKILL in turn. After
 * each kill the stack must come back by itself (the supervision of scripts/lib/stack.mjs) and the
 * clients' writes succeed again; at the end every write the API acknowledged (2xx) must be in
 * the database, and every callback timer that came due must have fired exactly once (one
 * CallbackAt notification for the task and time).
 *
 * Clients retry what failed, as a person would after an error message: the same note, the same
 * status change (with the status she saw, so a change that landed without an answer is not
 * applied twice), the same call. A write counts in the phase of the kill during which it was
 * first tried.
 *
 * Quick sample (npm test): one round, a few seconds of writes around each kill.
 * Full (npm run battery): two rounds with 20 s of writes before each kill.
 */
import { CaseStatus, UserType } from '@crisis/forms';
import { db } from '../support/db';
import { contactingCase, tampaDivisions } from '../support/cases';
import { signInAs } from '../support/oidc-client';
import { isOk, sleep, timedApi, type TimedResponse } from '../support/timed-api';
import { QUICK, stackPids, writeReport, type BatteryCheck, type BatteryReport } from './support';

// The battery's own reads must survive PostgreSQL going away under them.
db.on('error', () => undefined);

const KILLED = ['worker', 'temporal', 'postgres', 'api'] as const;
type Killed = (typeof KILLED)[number];
type Kind = 'note' | 'status' | 'call';
const KINDS: Kind[] = ['note', 'status', 'call'];
const KIND_LABEL: Record<Kind, string> = { note: 'notes', status: 'status changes', call: 'calls' };

const ROUNDS = QUICK ? 1 : 2;
/** Writes flow this long before each kill, and this long after the stack is back. */
const STEADY_MS = QUICK ? 3_000 : 20_000;
const SETTLE_MS = QUICK ? 500 : 5_000;
/** A kill after which the stack is not back within this is a failure (the next kill follows anyway). */
const RECOVERY_LIMIT_MS = QUICK ? 40_000 : 120_000;
/** Callbacks are set this far ahead, so they come due while a process is down or just after. */
const CALLBACK_MS: [number, number] = QUICK ? [3_000, 8_000] : [5_000, 25_000];
/** After the last kill, how long a due timer may take to fire (the callbacks sweep runs every minute, 30 s grace). */
const TIMER_GRACE_MS = QUICK ? 35_000 : 100_000;
const PAUSE_MS = QUICK ? 150 : 400;
const RETRY_MS = 400;
const STATUS_CASES = QUICK ? 3 : 4;
const CALL_CASES = QUICK ? 6 : 10;
const CALL_LANES = QUICK ? 2 : 3;

const RUN = Date.now().toString(36);
let serial = 0;
const token = (kind: Kind) => `kill-${RUN}-${kind}-${++serial}`;

interface Write {
  kind: Kind;
  token: string;
  phase: Killed;
  caseId: number;
  attempts: number;
  /** When the attempt that got the acknowledgement started, and when it was acknowledged. */
  lastAttemptAt: number;
  ackedAt: number | null;
}

interface Phase {
  name: Killed;
  killedAt: number | null;
  pidBefore: number | null;
  /** The first acknowledgement, per kind, of an attempt started after the kill. */
  backAt: Partial<Record<Kind, number>>;
  pidBackAt: number | null;
  recoveredMs: number | null;
}

const writes: Write[] = [];
const phases: Phase[] = [];
let current: Phase;
let stopping = false;
const refusals: Record<string, number> = {};

function startWrite(kind: Kind, caseId: number, t = token(kind)): Write {
  const w: Write = { kind, token: t, phase: current.name, caseId, attempts: 0, lastAttemptAt: 0, ackedAt: null };
  writes.push(w);
  return w;
}

/** One attempt of a write: counts it, and marks the stack back for its kind after a kill. */
async function attempt(w: Write, send: () => Promise<TimedResponse>): Promise<TimedResponse> {
  w.attempts++;
  w.lastAttemptAt = Date.now();
  const r = await send();
  if (isOk(r)) {
    w.ackedAt = Date.now();
    const p = current;
    if (p.killedAt !== null && w.lastAttemptAt >= p.killedAt && p.backAt[w.kind] === undefined) p.backAt[w.kind] = w.ackedAt;
  } else if (r.status >= 400 && r.status < 500) {
    const key = `${w.kind} ${r.status} ${r.code ?? ''}`.trim();
    refusals[key] = (refusals[key] ?? 0) + 1;
  }
  return r;
}

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[] | null> {
  try {
    return (await db.query(sql, params)).rows as T[];
  } catch {
    return null; // PostgreSQL is down: the caller tries again
  }
}

// ---------------------------------------------------------------------------------------------
// The clients
// ---------------------------------------------------------------------------------------------

/** Adds notes to the cases in turn; a failed note is sent again until it is acknowledged. */
async function notesClient(tokenOf: () => string, caseIds: number[], offset: number) {
  for (let i = offset; !stopping; i++) {
    const caseId = caseIds[i % caseIds.length];
    const w = startWrite('note', caseId);
    while (!stopping) {
      const r = await attempt(w, () => timedApi('POST', `/api/cases/${caseId}/notes`, { token: tokenOf(), body: { note: w.token } }));
      if (isOk(r)) break;
      if (r.status >= 400 && r.status < 500) break; // refused for good: counted in the refusals
      await sleep(RETRY_MS);
    }
    await sleep(PAUSE_MS);
  }
}

const CONTACTING_BODY = { mainRecommendation: 'MentalHealthInpatient', criteria: [], includeOutOfStateFacilities: false };

/**
 * Moves one case back and forth between contacting and recommendation review, each change with
 * its own note and the status the client saw (expectedStatus): a change that landed while its
 * answer was lost is refused on the retry (INV.CASE.STATUS.CHANGED), and the client reloads.
 */
async function statusClient(tokenOf: () => string, caseId: number) {
  let status: string = CaseStatus.Contacting;
  while (!stopping) {
    const target = status === CaseStatus.Contacting ? CaseStatus.WaitingOnDecision : CaseStatus.Contacting;
    const w = startWrite('status', caseId);
    const body = { status: target, note: w.token, expectedStatus: status, ...(target === CaseStatus.Contacting ? CONTACTING_BODY : {}) };
    while (!stopping) {
      const r = await attempt(w, () => timedApi('PUT', `/api/cases/${caseId}/status`, { token: tokenOf(), body }));
      if (isOk(r)) {
        status = target;
        break;
      }
      if (r.status >= 400 && r.status < 500) {
        // The case moved without our hearing of it (an earlier attempt landed): reload it.
        for (let rows = null as any[] | null; !stopping; await sleep(RETRY_MS)) {
          rows = await query('SELECT status FROM cases WHERE id = $1', [caseId]);
          if (rows) {
            status = rows[0].status;
            break;
          }
        }
        break;
      }
      await sleep(RETRY_MS);
    }
    await sleep(PAUSE_MS);
  }
}

interface CallWrite extends Write {
  taskId: number;
  callbackAt: string;
}

/**
 * A coordinator working one referring division: claims it (and renews the claim), calls the
 * division about a task whose previous callback has fired, and sets the next callback a few
 * seconds ahead. A lost claim (lapsed while the API was down) is claimed again.
 */
async function callsClient(tokenOf: () => string, divisionId: number, caseIds: number[]) {
  let claimId: number | null = null;
  const claim = async () => {
    while (!stopping) {
      const r = await timedApi('POST', `/api/placement-tasks/division/${divisionId}/claim`, { token: tokenOf(), body: {} });
      if (isOk(r)) {
        claimId = r.body.claimId;
        return;
      }
      await sleep(RETRY_MS);
    }
  };
  await claim();
  // Claiming again is the renewal (idempotent for the holder).
  const renewal = setInterval(() => void timedApi('POST', `/api/placement-tasks/division/${divisionId}/claim`, { token: tokenOf(), body: {} }).then((r) => {
    if (isOk(r)) claimId = r.body.claimId;
  }), 15_000);
  try {
    while (!stopping) {
      const free = await query<{ id: number; case_id: number }>(
        `SELECT id, case_id FROM placement_tasks
          WHERE division_id = $1 AND case_id = ANY($2::int[]) AND (callback_at IS NULL OR due_at IS NOT NULL)
          ORDER BY due_at NULLS FIRST, id LIMIT 1`,
        [divisionId, caseIds],
      );
      if (!free?.length) {
        await sleep(RETRY_MS);
        continue;
      }
      const task = free[0];
      const w = startWrite('call', task.case_id) as CallWrite;
      w.taskId = task.id;
      const ahead = () => new Date(Date.now() + CALLBACK_MS[0] + Math.random() * (CALLBACK_MS[1] - CALLBACK_MS[0])).toISOString();
      w.callbackAt = ahead();
      let refused = 0;
      while (!stopping) {
        // A callback time that passed while the stack was down is chosen again, as the form would ask.
        if (Date.parse(w.callbackAt) - Date.now() < 1_500) w.callbackAt = ahead();
        const body = { calls: [{ placementTaskId: task.id, result: 'CallBack', spokeWith: 'Intake nurse', note: w.token, callbackAt: w.callbackAt }] };
        const r = await attempt(w, () => timedApi('PUT', `/api/placement-tasks/claim/${claimId}/calls`, { token: tokenOf(), body }));
        if (isOk(r)) break;
        if (r.code === 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE') await claim();
        else if (r.status >= 400 && r.status < 500 && ++refused >= 3) break;
        await sleep(RETRY_MS);
      }
      await sleep(PAUSE_MS);
    }
  } finally {
    clearInterval(renewal);
    if (claimId) await timedApi('PUT', `/api/placement-tasks/claim/${claimId}/release`, { token: tokenOf() });
  }
}

// ---------------------------------------------------------------------------------------------
// Kills
// ---------------------------------------------------------------------------------------------

function pidOf(name: Killed): number | null {
  try {
    return stackPids()[name] ?? null;
  } catch {
    return null; // the file is being rewritten
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** kill -9, then waits until a new process is listed and every kind of write succeeds again. */
async function killAndRecover(p: Phase): Promise<void> {
  p.pidBefore = pidOf(p.name);
  if (!p.pidBefore) return;
  p.killedAt = Date.now();
  process.kill(p.pidBefore, 'SIGKILL');
  console.log(`kill: ${p.name} (pid ${p.pidBefore}) killed`);
  const deadline = p.killedAt + RECOVERY_LIMIT_MS;
  while (Date.now() < deadline) {
    if (p.pidBackAt === null) {
      const pid = pidOf(p.name);
      if (pid && pid !== p.pidBefore && alive(pid)) p.pidBackAt = Date.now();
    }
    if (p.pidBackAt !== null && KINDS.every((k) => p.backAt[k] !== undefined)) {
      p.recoveredMs = Math.max(p.pidBackAt, ...KINDS.map((k) => p.backAt[k]!)) - p.killedAt;
      const after = (at: number) => `${((at - p.killedAt!) / 1000).toFixed(1)} s`;
      console.log(`kill: ${p.name} back after ${(p.recoveredMs / 1000).toFixed(1)} s (new pid ${after(p.pidBackAt)}; ` +
        `${KINDS.map((k) => `${KIND_LABEL[k]} ${after(p.backAt[k]!)}`).join(', ')})`);
      return;
    }
    await sleep(100);
  }
  console.log(`kill: ${p.name} not back after ${RECOVERY_LIMIT_MS / 1000} s (new pid: ${p.pidBackAt !== null}, writes back: ${KINDS.filter((k) => p.backAt[k] !== undefined).join(', ') || 'none'})`);
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

/** Tries a case set-up until it succeeds without UNEXP.SERVICE.UNAVAILABLE (at most 10 minutes); returns how long that took when it had to wait. */
async function untilTheStackAnswers(probe: () => Promise<number>): Promise<number> {
  const started = Date.now();
  for (let waited = false; ; waited = true) {
    try {
      await probe();
      return waited ? Date.now() - started : 0;
    } catch (err) {
      if (!/\b503\b/.test(String(err)) || Date.now() - started > 600_000) throw err;
      await sleep(5_000);
    }
  }
}

async function createCases(n: number, make: () => Promise<number>): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 3) ids.push(...(await Promise.all(Array.from({ length: Math.min(3, n - i) }, make))));
  return ids;
}

async function main() {
  const started = Date.now();
  const checks: BatteryCheck[] = [];
  const figures: BatteryReport['figures'] = {};

  const [itp, admin, provider] = await Promise.all([signInAs(UserType.ItpUser), signInAs(UserType.ItpAdmin), signInAs(UserType.ItpProvider)]);
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id as number;
  const { facilityId, floorId } = await tampaDivisions();
  const newCase = () =>
    contactingCase({ token: itp.accessToken, providerToken: provider.accessToken, facilityId, divisionId: floorId, providerId, patient: { lastName: 'Battery' } });
  // After the load battery the worker is still working through the case commands its 200 clients
  // left queued (their callers gave up after 15 s, the commands stay accepted): the set-up waits
  // for that backlog, so the kills below start on a stack that answers.
  const backlogWaitMs = await untilTheStackAnswers(newCase);
  if (backlogWaitMs > 0) console.log(`kill: waited ${(backlogWaitMs / 1000).toFixed(0)} s for the backlog of the previous battery`);
  figures['waited for an earlier backlog (s)'] = Math.round(backlogWaitMs / 1000);
  const statusCases = await createCases(STATUS_CASES, newCase);
  const callCases = await createCases(CALL_CASES, newCase);
  // The referring divisions that have a task on every call case (generated on entering contacting).
  const divisions = (
    await db.query(
      `SELECT division_id FROM placement_tasks WHERE case_id = ANY($1::int[]) GROUP BY division_id
        HAVING count(*) = $2 ORDER BY division_id LIMIT $3`,
      [callCases, CALL_CASES, CALL_LANES],
    )
  ).rows.map((r) => r.division_id as number);
  console.log(`kill: ${statusCases.length} status cases, ${callCases.length} call cases, divisions ${divisions.join(', ')} (set-up ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (divisions.length < 2) throw new Error(`only ${divisions.length} referring division(s) have a task on every call case`);

  const tokens = [itp, admin];
  const tokenOf = (i: number) => () => tokens[i % tokens.length].accessToken;
  current = { name: KILLED[0], killedAt: null, pidBefore: null, backAt: {}, pidBackAt: null, recoveredMs: null };
  const clients = [
    notesClient(tokenOf(0), statusCases, 0),
    notesClient(tokenOf(1), statusCases, 1),
    ...statusCases.map((id, i) => statusClient(tokenOf(i), id)),
    ...divisions.map((d, i) => callsClient(tokenOf(i), d, callCases)),
  ];

  for (let round = 0; round < ROUNDS; round++) {
    for (const name of KILLED) {
      current = { name, killedAt: null, pidBefore: null, backAt: {}, pidBackAt: null, recoveredMs: null };
      phases.push(current);
      await sleep(STEADY_MS);
      await killAndRecover(current);
      await sleep(SETTLE_MS);
    }
  }
  stopping = true;
  await Promise.all(clients);
  const writesEnded = Date.now();

  // Every timer of an acknowledged call is due at its callback time: wait until they have fired.
  const acked = writes.filter((w) => w.ackedAt !== null);
  const calls = acked.filter((w): w is CallWrite => w.kind === 'call');
  const lastDue = Math.max(0, ...calls.map((w) => Date.parse(w.callbackAt)));
  const timerDeadline = lastDue + TIMER_GRACE_MS;
  const rowsOf = async () =>
    (
      await db.query(
        `SELECT pc.note AS token, count(*)::int AS rows,
                (array_agg(pc.task_id ORDER BY pc.id DESC))[1] AS task_id,
                (array_agg(pc.callback_at ORDER BY pc.id DESC))[1] AS callback_at,
                (SELECT count(*)::int FROM notifications n
                  WHERE n.payload->>'TaskId' = (array_agg(pc.task_id ORDER BY pc.id DESC))[1]::text
                    AND (n.payload->>'CallbackAt')::timestamptz = (array_agg(pc.callback_at ORDER BY pc.id DESC))[1]) AS fired
           FROM placement_calls pc WHERE pc.note = ANY($1::text[]) GROUP BY pc.note`,
        [writes.filter((w) => w.kind === 'call').map((w) => w.token)],
      )
    ).rows as Array<{ token: string; rows: number; task_id: number; callback_at: Date; fired: number }>;
  let callRows = await rowsOf();
  for (;;) {
    const byToken = new Map(callRows.map((r) => [r.token, r]));
    const waiting = calls.filter((w) => {
      const r = byToken.get(w.token);
      return r && r.callback_at.getTime() <= Date.now() && r.fired === 0;
    }).length;
    if (Date.now() >= lastDue + 1_000 && waiting === 0) break;
    if (Date.now() > timerDeadline) break;
    await sleep(1_000);
    callRows = await rowsOf();
  }
  const timersChecked = Date.now();

  // What the database holds, per write token.
  const counted = new Map<string, number>();
  for (const [table, kind] of [['case_notes', 'note'], ['case_activities', 'status']] as const) {
    const { rows } = await db.query(`SELECT note, count(*)::int AS n FROM ${table} WHERE note = ANY($1::text[]) GROUP BY note`, [
      writes.filter((w) => w.kind === kind).map((w) => w.token),
    ]);
    for (const r of rows) counted.set(r.note, r.n);
  }
  const callRowOf = new Map(callRows.map((r) => [r.token, r]));
  for (const r of callRows) counted.set(r.token, r.rows);

  for (const name of KILLED) {
    const ps = phases.filter((p) => p.name === name);
    const ws = writes.filter((w) => w.phase === name);
    const ack = ws.filter((w) => w.ackedAt !== null);
    const found = ack.filter((w) => (counted.get(w.token) ?? 0) > 0);
    const lost = ack.filter((w) => !counted.get(w.token));
    const duplicates = ws.reduce((n, w) => n + Math.max(0, (counted.get(w.token) ?? 0) - 1), 0);
    const unacknowledgedLanded = ws.filter((w) => w.ackedAt === null && counted.get(w.token)).length;
    const timers = ack
      .filter((w): w is CallWrite => w.kind === 'call')
      .map((w) => callRowOf.get(w.token))
      .filter((r): r is NonNullable<typeof r> => !!r && r.callback_at.getTime() <= timersChecked);
    const down = ps.filter((p) => p.killedAt !== null).map((p) => [p.killedAt!, p.killedAt! + (p.recoveredMs ?? RECOVERY_LIMIT_MS)]);
    const dueWhileDown = timers.filter((r) => down.some(([from, to]) => r.callback_at.getTime() >= from && r.callback_at.getTime() <= to)).length;
    const firedOnce = timers.filter((r) => r.fired === 1).length;
    const firedTwice = timers.filter((r) => r.fired > 1).length;
    const recovered = ps.map((p) => p.recoveredMs);
    const perKind = Object.fromEntries(KINDS.map((k) => [k, `${ack.filter((w) => w.kind === k).length} acknowledged / ${found.filter((w) => w.kind === k).length} found`]));
    figures[`kill -9 ${name}`] = {
      kills: ps.length,
      writesAcknowledged: ack.length,
      found: found.length,
      lost: lost.length,
      duplicates,
      unacknowledgedButSaved: unacknowledgedLanded,
      secondsToRecovery: recovered.map((ms) => (ms === null ? 'not back' : (ms / 1000).toFixed(1))).join(', '),
      timersDue: timers.length,
      timersDueWhileDown: dueWhileDown,
      timersFiredOnce: firedOnce,
      timersFiredTwice: firedTwice,
      ...perKind,
    };
    checks.push({
      name: `kill -9 ${name}: the stack comes back by itself (new process, notes, status changes and calls succeed again)`,
      ok: ps.length > 0 && ps.every((p) => p.recoveredMs !== null),
      detail: ps.map((p) => (p.recoveredMs === null ? `not back within ${RECOVERY_LIMIT_MS / 1000} s` : `${(p.recoveredMs / 1000).toFixed(1)} s`)).join(', '),
    });
    checks.push({
      name: `kill -9 ${name}: every acknowledged write is in the database`,
      ok: lost.length === 0 && KINDS.every((k) => ack.some((w) => w.kind === k)),
      detail: `${ack.length} acknowledged, ${found.length} found, ${lost.length} lost` +
        (lost.length ? ` (${lost.slice(0, 5).map((w) => w.token).join(', ')})` : ''),
    });
    checks.push({
      name: `kill -9 ${name}: every callback that came due fired exactly once`,
      ok: timers.length > 0 && firedOnce === timers.length,
      detail: `${timers.length} due, ${firedOnce} fired once, ${firedTwice} twice, ${timers.length - firedOnce - firedTwice} not fired`,
    });
  }
  // The pid file names the processes running now (the battery killed each by reading it).
  const listed = KILLED.map((name) => ({ name, pid: pidOf(name), killed: phases.filter((p) => p.name === name).map((p) => p.pidBefore) }));
  checks.push({
    name: 'the pid file lists the restarted api, worker, temporal and postgres',
    ok: listed.every((l) => l.pid !== null && alive(l.pid) && !l.killed.includes(l.pid)),
    detail: listed.map((l) => `${l.name} ${l.pid ?? 'missing'}`).join(', '),
  });
  figures.writes = {
    tried: writes.length,
    acknowledged: acked.length,
    attempts: writes.reduce((n, w) => n + w.attempts, 0),
    secondsOfWrites: ((writesEnded - started) / 1000).toFixed(0),
  };
  if (Object.keys(refusals).length) figures.refusals = refusals;
  writeReport({ name: 'kill', checks, figures });
  await db.end().catch(() => undefined);
}

main().catch(async (err) => {
  console.error(err);
  writeReport({ name: 'kill', checks: [{ name: 'the kill battery ran', ok: false, detail: String(err?.message ?? err) }], figures: {} });
  await db.end().catch(() => undefined);
  process.exit(1);
});
