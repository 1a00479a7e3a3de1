/**
 * Which referring divisions fit a case, and in which order (issue 5 "Finding facilities"; spec 02
 * §3 Placement task; spec 03 §3 Division and state restrictions). Pure: the worker loads the
 * candidates and the case, these functions decide.
 */
import { CRITERIA } from '../enums';
import { acceptsAge } from '../patients';

export interface MatchCase {
  mainRecommendation: string | null;
  criteria: readonly string[];
  patientAge: number;
  patientGender: string;
  isVeteran: boolean;
  isInvoluntary: boolean;
  includeOutOfStateFacilities: boolean;
  sourceState: string;
  sourcePopulatesOutOfState: boolean;
}

export interface MatchDivision {
  divisionId: number;
  facilityId: number;
  referringType: string | null;
  criteria: readonly string[] | null;
  genders: readonly string[] | null;
  veteranOnly: boolean | null;
  acceptedPatients: {
    allAges?: boolean;
    adolescent?: { isActive?: boolean; from?: number | null; to?: number | null } | null;
    adult?: { isActive?: boolean; from?: number | null; to?: number | null } | null;
    geriatric?: { isActive?: boolean; from?: number | null; to?: number | null } | null;
  } | null;
  state: string;
  score: number | null;
  isPreferred: boolean;
  travelSeconds: number | null;
}

/** A source facility's rule for one destination state (spec 03 §3 state restrictions). */
export interface StateRule {
  type: 'NoRestrictions' | 'OnlyPopulateFacilitiesWithinTravelTime' | 'DoNotPopulateFacilities';
  travelTimeSeconds: number | null;
}

/** The referring type a main recommendation places into (the names are shared; Defer places nowhere). */
export const referringTypeFor = (mainRecommendation: string | null): string | null =>
  !mainRecommendation || mainRecommendation === 'DeferRecommendationsAtThisTime' ? null : mainRecommendation;

/** The division's gender list names Female/Male; transgender patients count by their gender identity. */
const genderGroup = (gender: string): string => (gender === 'Transgender_Female' ? 'Female' : gender === 'Transgender_Male' ? 'Male' : gender);


/**
 * Why a division fits the case (the reasons shown beside it), or null when it does not.
 * `rule` is the source facility's restriction for the division's state (undefined: none set).
 */
export function matchDivision(c: MatchCase, d: MatchDivision, rule: StateRule | undefined): string[] | null {
  const type = referringTypeFor(c.mainRecommendation);
  if (!type || d.referringType !== type) return null;
  const reasons = [`${type.replace(/([a-z])([A-Z])/g, '$1 $2')} division`];
  // Division criteria (MentalHealth, therapy, psychiatry, substance abuse) must cover the case's.
  const needed = c.criteria.filter((x) => (CRITERIA as readonly string[]).includes(x));
  if (needed.length) {
    if (!needed.every((x) => d.criteria?.includes(x))) return null;
    reasons.push(`Offers ${needed.join(', ')}`);
  }
  if (!acceptsAge(d.acceptedPatients, c.patientAge)) return null;
  reasons.push(d.acceptedPatients?.allAges ? 'All ages' : `Accepts age ${c.patientAge}`);
  if (d.genders?.length && !d.genders.includes(genderGroup(c.patientGender))) return null;
  if (d.veteranOnly) {
    if (!c.isVeteran) return null;
    reasons.push('Veterans division');
  }
  const outOfState = d.state !== c.sourceState;
  if (outOfState) {
    // Involuntary holds are state-bound unless the source facility populates out-of-state and the case asks for it.
    if (c.isInvoluntary && !(c.sourcePopulatesOutOfState && c.includeOutOfStateFacilities)) return null;
    reasons.push(`Out of state (${d.state})`);
  }
  if (rule?.type === 'DoNotPopulateFacilities') return null;
  if (rule?.type === 'OnlyPopulateFacilitiesWithinTravelTime') {
    if (d.travelSeconds === null || rule.travelTimeSeconds === null || d.travelSeconds > rule.travelTimeSeconds) return null;
    reasons.push('Within the travel-time limit');
  }
  if (d.isPreferred) reasons.unshift('Preferred facility');
  return reasons;
}

/** Rank: preferred facilities first, then higher division score, then shorter travel time. */
export function compareCandidates(a: MatchDivision, b: MatchDivision): number {
  if (a.isPreferred !== b.isPreferred) return a.isPreferred ? -1 : 1;
  const sa = a.score ?? 0;
  const sb = b.score ?? 0;
  if (sa !== sb) return sb - sa;
  const ta = a.travelSeconds ?? Number.MAX_SAFE_INTEGER;
  const tb = b.travelSeconds ?? Number.MAX_SAFE_INTEGER;
  if (ta !== tb) return ta - tb;
  return a.divisionId - b.divisionId;
}

/** How many tasks entering contacting generates, and how many "Add tasks" adds at most. */
export const INITIAL_PLACEMENT_TASKS = 10;
export const ADD_TASKS_MAX = 5;

/**
 * Straight-line travel estimate (the routing port's default): great-circle distance × 1.3 for
 * roads, at 50 mph. Returns seconds.
 */
export function estimateTravelSeconds(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (x: number) => (x * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  const miles = 3958.8 * 2 * Math.asin(Math.sqrt(h));
  return Math.round(((miles * 1.3) / 50) * 3600);
}
