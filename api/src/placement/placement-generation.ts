/**
 * Placement task generation (issue 5 "Finding facilities"): loads the case and the candidate
 * referring divisions, lets the rules of forms/ decide which fit and in which order, and inserts
 * the next `count` tasks. Runs inside the case command's transaction, so it is serialized with the
 * case's status changes and applied once; the travel times (a routing service, up to 3 s) are
 * asked before that transaction by travelForCandidates.
 */
import type { Sql } from '../db/sql';
import {
  ageInYears,
  compareCandidates,
  estimateTravelSeconds,
  matchDivision,
  referringTypeFor,
  type MatchCase,
  type MatchDivision,
  type StateRule,
} from '@crisis/forms';

/** Travel time between two points; the default estimate, or a routing service (ROUTING_URL, OSRM table API). */
export interface RoutingPort {
  travelSeconds(from: { latitude: number; longitude: number }, to: Array<{ latitude: number; longitude: number }>): Promise<Array<number | null>>;
}

export const straightLineRouting: RoutingPort = {
  async travelSeconds(from, to) {
    return to.map((t) => estimateTravelSeconds(from, t));
  },
};

/** OSRM's table service (`/table/v1/driving/…?sources=0`), falling back to the estimate on failure. */
export function osrmRouting(baseUrl: string): RoutingPort {
  return {
    async travelSeconds(from, to) {
      if (!to.length) return [];
      const coords = [from, ...to].map((p) => `${p.longitude},${p.latitude}`).join(';');
      try {
        const res = await fetch(`${baseUrl.replace(/\/$/, '')}/table/v1/driving/${coords}?sources=0&annotations=duration`, { signal: AbortSignal.timeout(3000) });
        const body = (await res.json()) as { durations?: number[][] };
        const row = body.durations?.[0];
        if (!res.ok || !row) throw new Error(`routing HTTP ${res.status}`);
        return row.slice(1).map((s) => (s === null ? null : Math.round(s)));
      } catch {
        return straightLineRouting.travelSeconds(from, to);
      }
    },
  };
}

export const routingFromEnv = (): RoutingPort => (process.env.ROUTING_URL ? osrmRouting(process.env.ROUTING_URL) : straightLineRouting);
/** A routing service answers over the network (worth asking before the transaction); the estimate is arithmetic. */
export const routingIsRemote = (): boolean => !!process.env.ROUTING_URL;

export interface GenerateOptions {
  count: number;
  origin: 'generated' | 'added';
  notes?: string | null;
  actorId?: number | null;
  /** Travel times asked before the transaction; a division missing here gets the straight-line estimate. */
  travel?: TravelTimes;
}

/** Division id → travel seconds from the source facility (null when unknown). */
export type TravelTimes = Map<number, number | null>;

/**
 * The travel times from the case's source facility to every active referring division of the
 * type its recommendation asks for (`recommendation` undefined: the case's own). Runs before the
 * command's transaction, so no row lock is held while a routing service answers.
 */
export async function travelForCandidates(db: Sql, caseId: number, recommendation?: string | null, routing = routingFromEnv()): Promise<TravelTimes> {
  const { rows: cases } = await db.query<{ main_recommendation: string | null; latitude: number; longitude: number; source_facility_id: number }>(
    `SELECT c.main_recommendation, f.latitude, f.longitude, c.source_facility_id
       FROM cases c JOIN facilities f ON f.id = c.source_facility_id WHERE c.id = $1`,
    [caseId],
  );
  const c = cases[0];
  const type = c && referringTypeFor(recommendation === undefined ? c.main_recommendation : recommendation);
  if (!c || !type) return new Map();
  const { rows: divisions } = await db.query<{ id: number; latitude: number; longitude: number }>(
    `SELECT d.id, f.latitude, f.longitude FROM divisions d JOIN facilities f ON f.id = d.facility_id
      WHERE d.type = 'Referring' AND d.is_active AND f.is_active AND d.referring_type = $1 AND f.id <> $2
        AND NOT EXISTS (SELECT 1 FROM placement_tasks t WHERE t.case_id = $3 AND t.division_id = d.id)`,
    [type, c.source_facility_id, caseId],
  );
  const seconds = await routing.travelSeconds({ latitude: c.latitude, longitude: c.longitude }, divisions);
  return new Map(divisions.map((d, i) => [d.id, seconds[i] ?? null]));
}

type Fitting = MatchDivision & { reasons: string[] };

/**
 * The referring divisions without a task on the case that fit it, best first (the order the
 * next tasks are made in). Reads only: "add tasks" tells from it how many tasks it would add.
 */
export async function fittingDivisions(db: Sql, caseId: number, opts: { travel?: TravelTimes } = {}): Promise<Fitting[]> {
  const { rows: cases } = await db.query<{
    main_recommendation: string | null;
    criteria: string[];
    date_of_birth: string;
    gender: string;
    is_veteran: boolean;
    is_involuntary: boolean;
    include_out_of_state_facilities: boolean;
    state: string;
    populate_out_of_state_facilities: boolean;
    latitude: number;
    longitude: number;
    source_facility_id: number;
  }>(
    `SELECT c.main_recommendation, c.criteria, p.gender, p.is_veteran, c.is_involuntary, c.include_out_of_state_facilities,
            f.state, f.populate_out_of_state_facilities, f.latitude, f.longitude, c.source_facility_id,
            p.date_of_birth::text AS date_of_birth
       FROM cases c JOIN patients p ON p.id = c.patient_id JOIN facilities f ON f.id = c.source_facility_id
      WHERE c.id = $1`,
    [caseId],
  );
  const c = cases[0];
  const type = referringTypeFor(c?.main_recommendation ?? null);
  if (!c || !type) return [];

  const { rows: candidates } = await db.query<{
    division_id: number;
    facility_id: number;
    referring_type: string;
    criteria: string[] | null;
    genders: string[] | null;
    veteran_only: boolean | null;
    accepted_patients: MatchDivision['acceptedPatients'];
    state: string;
    score: number | null;
    latitude: number;
    longitude: number;
    is_preferred: boolean;
  }>(
    `SELECT d.id AS division_id, f.id AS facility_id, d.referring_type, d.criteria, d.genders, d.veteran_only, d.accepted_patients,
            f.state, d.score, f.latitude, f.longitude,
            EXISTS (SELECT 1 FROM preferred_facilities pf WHERE pf.facility_id = $2 AND pf.preferred_facility_id = f.id) AS is_preferred
       FROM divisions d JOIN facilities f ON f.id = d.facility_id
      WHERE d.type = 'Referring' AND d.is_active AND f.is_active AND d.referring_type = $1 AND f.id <> $2
        AND NOT EXISTS (SELECT 1 FROM placement_tasks t WHERE t.case_id = $3 AND t.division_id = d.id)`,
    [type, c.source_facility_id, caseId],
  );
  if (!candidates.length) return [];
  const { rows: ruleRows } = await db.query<{ state: string; type: StateRule['type']; within_travel_time: number | null }>(
    'SELECT state, type, within_travel_time FROM facility_state_restrictions WHERE facility_id = $1',
    [c.source_facility_id],
  );
  const rules = new Map(ruleRows.map((r) => [r.state.trim(), { type: r.type, travelTimeSeconds: r.within_travel_time }]));
  const from = { latitude: c.latitude, longitude: c.longitude };
  const travelOf = (d: (typeof candidates)[number]) =>
    opts.travel?.has(d.division_id) ? opts.travel.get(d.division_id)! : estimateTravelSeconds(from, d);

  const matchCase: MatchCase = {
    mainRecommendation: c.main_recommendation,
    criteria: c.criteria,
    patientAge: ageInYears(c.date_of_birth),
    patientGender: c.gender,
    isVeteran: c.is_veteran,
    isInvoluntary: c.is_involuntary,
    includeOutOfStateFacilities: c.include_out_of_state_facilities,
    sourceState: c.state.trim(),
    sourcePopulatesOutOfState: c.populate_out_of_state_facilities,
  };
  const fitting: Fitting[] = [];
  candidates.forEach((d) => {
    const division: MatchDivision = {
      divisionId: d.division_id,
      facilityId: d.facility_id,
      referringType: d.referring_type,
      criteria: d.criteria,
      genders: d.genders,
      veteranOnly: d.veteran_only,
      acceptedPatients: d.accepted_patients,
      state: d.state.trim(),
      score: d.score,
      isPreferred: d.is_preferred,
      travelSeconds: travelOf(d),
    };
    const reasons = matchDivision(matchCase, division, rules.get(division.state));
    if (reasons) fitting.push({ ...division, reasons });
  });
  fitting.sort(compareCandidates);
  return fitting;
}

/** Inserts up to `count` new tasks for the best-fitting divisions without one; returns their ids. */
export async function generatePlacementTasks(db: Sql, caseId: number, opts: GenerateOptions): Promise<number[]> {
  if (opts.count <= 0) return [];
  const chosen = (await fittingDivisions(db, caseId, { travel: opts.travel })).slice(0, opts.count);
  if (!chosen.length) return [];
  const { rows: rankRow } = await db.query<{ n: number }>('SELECT coalesce(max(rank), 0)::int AS n FROM placement_tasks WHERE case_id = $1', [caseId]);
  const { rows: inserted } = await db.query<{ id: number }>(
    `INSERT INTO placement_tasks (case_id, division_id, facility_id, origin, notes, reasons, is_preferred, travel_seconds, rank, created_by)
     SELECT $1, x.division_id, x.facility_id, $2, $3, x.reasons, x.is_preferred, x.travel_seconds, $4 + x.ord, $5
       FROM jsonb_to_recordset($6::jsonb) AS x(division_id int, facility_id int, reasons text[], is_preferred boolean, travel_seconds int, ord int)
     ON CONFLICT (case_id, division_id) DO NOTHING
     RETURNING id`,
    [
      caseId,
      opts.origin,
      opts.notes ?? null,
      rankRow[0].n,
      opts.actorId ?? null,
      JSON.stringify(
        chosen.map((d, i) => ({
          division_id: d.divisionId,
          facility_id: d.facilityId,
          reasons: d.reasons,
          is_preferred: d.isPreferred,
          travel_seconds: d.travelSeconds,
          ord: i + 1,
        })),
      ),
    ],
  );
  return inserted.map((r) => r.id);
}
