/**
 * Real row ids by kind, read from the database, for batteries that send ids: the rows of the demo
 * world (the seed's) and the rows the battery created itself (`owned`: ids above the highest one
 * at the start). A battery that changes rows asks for a `target`: a row it may change without
 * spoiling the demo world for the batteries after it (see resolveId).
 */
import { db } from './db';
import { IdRef } from './schema-inputs';

export interface PoolRow {
  id: number | string;
  /** The facility the row belongs to (null: global, e.g. payers, ITP users). */
  facility: number | null;
  owned: boolean;
}

/** Each kind's rows: id, and the facility it belongs to. */
const KIND_SQL: Record<string, string> = {
  facility: 'SELECT id, id AS facility FROM facilities',
  division: 'SELECT id, facility_id AS facility FROM divisions',
  user: "SELECT id, CASE WHEN organization_type = 'Facility' THEN organization_id END AS facility FROM users",
  case: 'SELECT id, source_facility_id AS facility FROM cases',
  patient: 'SELECT id, created_in_facility_id AS facility FROM patients',
  request: 'SELECT r.id, c.source_facility_id AS facility FROM requests r JOIN cases c ON c.id = r.case_id',
  note: 'SELECT n.id, c.source_facility_id AS facility FROM case_notes n JOIN cases c ON c.id = n.case_id',
  file: 'SELECT f.id, c.source_facility_id AS facility FROM patient_files f JOIN cases c ON c.id = f.case_id',
  insurance: 'SELECT i.id, c.source_facility_id AS facility FROM patient_insurances i JOIN cases c ON c.id = i.case_id',
  placementTask: 'SELECT t.id, c.source_facility_id AS facility FROM placement_tasks t JOIN cases c ON c.id = t.case_id',
  call: 'SELECT p.id, c.source_facility_id AS facility FROM placement_calls p JOIN cases c ON c.id = p.case_id',
  claim: 'SELECT id, NULL::int AS facility FROM claims',
  group: 'SELECT id, NULL::int AS facility FROM group_organizations',
  payer: 'SELECT id, NULL::int AS facility FROM payers',
  billingCode: 'SELECT id, NULL::int AS facility FROM billing_codes',
  patientTag: 'SELECT id, NULL::int AS facility FROM patient_tags',
  evaluationForm: 'SELECT id, NULL::int AS facility FROM evaluation_forms',
  itpOrganization: 'SELECT id, NULL::int AS facility FROM itp_organization',
  auditEntry: 'SELECT id, facility_id AS facility FROM (SELECT id, facility_id FROM audit_log ORDER BY id DESC LIMIT 300) a',
  avatar: "SELECT avatar AS id, CASE WHEN organization_type = 'Facility' THEN organization_id END AS facility FROM users WHERE avatar IS NOT NULL",
};
export const ROW_KINDS = Object.keys(KIND_SQL);

/** Ids that no row holds, as a client might send them. */
const UNKNOWN_IDS = [987654321, 2147483647, 1234567, 99999];

export class RowPools {
  private rows: Record<string, PoolRow[]> = {};
  private startMax: Record<string, number> = {};

  /** Reads every kind; the first call fixes which rows are the demo world's. */
  async refresh(): Promise<void> {
    const first = !Object.keys(this.startMax).length;
    for (const [kind, sql] of Object.entries(KIND_SQL)) {
      const { rows } = await db.query<{ id: number | string; facility: number | null }>(sql);
      if (first) this.startMax[kind] = Math.max(0, ...rows.map((r) => (typeof r.id === 'number' ? r.id : Number(r.id) || 0)));
      this.rows[kind] = rows.map((r) => ({
        id: kind === 'avatar' ? r.id : Number(r.id),
        facility: r.facility,
        owned: kind !== 'avatar' && Number(r.id) > this.startMax[kind],
      }));
    }
  }

  all(kind: string): PoolRow[] {
    return this.rows[kind] ?? [];
  }

  /** Whether `role` (of `facility`) may not be sent this row as a target (see resolve). */
  isProtected(kind: string, id: unknown, facility: number | null): boolean {
    const row = this.all(kind).find((r) => String(r.id) === String(id));
    return !!row && !row.owned && (facility === null || row.facility === facility);
  }

  /**
   * The id a reference stands for, as `role` (whose facility is `facility`, null for ITP and group
   * staff) sends it.
   *
   * `target`: the call may change the row. Then a demo-world row is sent only where the role may
   * not change it, so the answer must be a refusal: a facility's staff get other facilities' rows
   * (never their own facility's); ITP and group staff, whom the API lets change anything, get only
   * the rows the battery created. Changing those breaks nothing the other batteries read.
   */
  resolve(ref: IdRef, facility: number | null, target: boolean): number | string {
    const unknown = UNKNOWN_IDS[ref.pick % UNKNOWN_IDS.length];
    if (ref.scope === 'unknown') return unknown;
    let rows = this.all(ref.kind);
    if (ref.scope === 'foreign') rows = rows.filter((r) => facility === null || r.facility !== facility);
    if (target) rows = rows.filter((r) => !this.isProtected(ref.kind, r.id, facility));
    if (!rows.length) return unknown;
    // Rows the battery created come up more often: they are the ones a call can really change.
    const owned = rows.filter((r) => r.owned);
    const from = owned.length && ref.pick % 3 !== 0 ? owned : rows;
    return from[Math.floor(ref.pick / 3) % from.length].id;
  }
}
