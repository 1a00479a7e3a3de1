/**
 * Synthetic facilities for the facility-list benchmark: `node seed/dist/bench.js 10000`.
 *
 * Idempotent: facility i is always "Bench <name> <i>" with the same zip, so a second run with the
 * same n inserts nothing, and a larger n adds only the missing ones. Rows go in batches of 1000
 * through one INSERT ... SELECT FROM unnest(...) each (one round trip per batch), then
 * VACUUM ANALYZE so the planner and index-only scans see the table as a running system would.
 */
import type { Client } from 'pg';
import { SOURCE_TYPES, REFERRING_TYPES, REQUEST_TYPES, criteriaAllowedFor, type ReferringType } from '@crisis/forms';
import { chunks, connect, databaseUrl } from './db';

export const BENCH_PREFIX = 'Bench';
const BATCH = 1000;

/** Cities with their state, county, zip prefix and a centre point. */
const CITIES = [
  ['Tampa', 'FL', 'Hillsborough County', '336', 27.9506, -82.4572],
  ['Orlando', 'FL', 'Orange County', '328', 28.5383, -81.3792],
  ['Miami', 'FL', 'Miami-Dade County', '331', 25.7617, -80.1918],
  ['Jacksonville', 'FL', 'Duval County', '322', 30.3322, -81.6557],
  ['Tallahassee', 'FL', 'Leon County', '323', 30.4383, -84.2807],
  ['Gainesville', 'FL', 'Alachua County', '326', 29.6516, -82.3248],
  ['Atlanta', 'GA', 'Fulton County', '303', 33.749, -84.388],
  ['Savannah', 'GA', 'Chatham County', '314', 32.0809, -81.0912],
  ['Macon', 'GA', 'Bibb County', '312', 32.8407, -83.6324],
  ['Augusta', 'GA', 'Richmond County', '309', 33.4735, -82.0105],
  ['Birmingham', 'AL', 'Jefferson County', '352', 33.5186, -86.8104],
  ['Mobile', 'AL', 'Mobile County', '366', 30.6954, -88.0399],
  ['Charleston', 'SC', 'Charleston County', '294', 32.7765, -79.9311],
  ['Columbia', 'SC', 'Richland County', '292', 34.0007, -81.0348],
  ['Charlotte', 'NC', 'Mecklenburg County', '282', 35.2271, -80.8431],
  ['Raleigh', 'NC', 'Wake County', '276', 35.7796, -78.6382],
  ['Nashville', 'TN', 'Davidson County', '372', 36.1627, -86.7816],
  ['Memphis', 'TN', 'Shelby County', '381', 35.1495, -90.049],
  ['Jackson', 'MS', 'Hinds County', '392', 32.2988, -90.1848],
  ['New Orleans', 'LA', 'Orleans Parish', '701', 29.9511, -90.0715],
] as const;
const WORDS = ['Riverside', 'Lakeview', 'Harbor', 'Pinecrest', 'Magnolia', 'Oak Ridge', 'Summit', 'Cypress', 'Palmetto', 'Willow', 'Cedar', 'Bayfront', 'Hillcrest', 'Meadowbrook', 'Sunrise', 'Northside'];
const KINDS = ['Behavioral Center', 'Medical Center', 'Regional Hospital', 'Recovery Residence', 'Counseling Services', 'Crisis Unit', 'Health System', 'Psychiatric Hospital'];
const STREETS = ['Main St', 'Oak Ave', 'Peachtree Rd', 'Bay St', 'Ocean Blvd', 'Park Ave', 'Church St', 'Market St', 'Lake Dr', 'Palm Ave'];

/** Deterministic: facility i always looks the same. */
export function benchFacility(i: number) {
  const [city, state, county, zip3, lat, lon] = CITIES[i % CITIES.length];
  const word = WORDS[(i * 7) % WORDS.length];
  const kind = KINDS[(i * 3) % KINDS.length];
  return {
    name: `${BENCH_PREFIX} ${word} ${kind} ${String(i).padStart(5, '0')}`,
    streetLine: `${100 + ((i * 37) % 9800)} ${STREETS[i % STREETS.length]}`,
    city,
    state,
    county,
    zipCode: `${zip3}${String(i % 100).padStart(2, '0')}`,
    latitude: lat + (((i * 13) % 200) - 100) / 1000,
    longitude: lon + (((i * 17) % 200) - 100) / 1000,
    isActive: i % 25 !== 0,
    phone: `+1813555${String(i % 10000).padStart(4, '0')}`,
  };
}

/** Divisions of facility i: most have a Source and/or a Referring one, every tenth none. */
export function benchDivisions(i: number) {
  const f = benchFacility(i);
  const out: Array<Record<string, unknown>> = [];
  if (i % 10 === 0) return out;
  const contacts = JSON.stringify({ phone1: f.phone, fax1: f.phone });
  if (i % 3 !== 0)
    out.push({
      name: 'Emergency Department', type: 'Source', isActive: i % 11 !== 0, contacts,
      sourceType: SOURCE_TYPES[i % SOURCE_TYPES.length], requestTypes: [REQUEST_TYPES[i % REQUEST_TYPES.length], 'Assessment'].filter((v, k, a) => a.indexOf(v) === k),
      documentInEHR: false, noPlacement: false, outcomeRequired: true, showBillingCode: false,
    });
  if (i % 2 === 0) {
    const referringType = REFERRING_TYPES[i % REFERRING_TYPES.length] as ReferringType;
    const allowed = criteriaAllowedFor(referringType);
    out.push({
      name: 'Adult Inpatient', type: 'Referring', isActive: i % 13 !== 0, contacts,
      referringType, criteria: allowed.length ? [allowed[0]] : null,
      acceptedPatients: JSON.stringify({ allAges: true }), genders: ['Female', 'Male'], veteranOnly: false,
      extendMaximumCallbackTime: false, score: 70,
    });
  }
  return out;
}

const col = <T>(rows: T[], pick: (r: T) => unknown) => rows.map(pick);

/** Ensures facilities 1..n of the bench set exist (with their divisions). Returns how many were added. */
export async function seedBenchFacilities(n: number, opts: { client?: Client; databaseUrl?: string } = {}): Promise<{ inserted: number; total: number }> {
  const client = opts.client ?? (await connect(opts.databaseUrl ?? databaseUrl()));
  let inserted = 0;
  try {
    for (const batch of chunks(Array.from({ length: n }, (_, k) => k + 1), BATCH)) {
      const fs = batch.map(benchFacility);
      const { rows } = await client.query<{ id: number; name: string }>(
        `INSERT INTO facilities (name, street_line, city, state, zip_code, county, latitude, longitude, is_active, contacts)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bpchar[], $5::text[], $6::text[],
                              $7::float8[], $8::float8[], $9::bool[], $10::jsonb[]) AS t(name, street, city, state, zip, county, lat, lon, active, contacts)
          -- skip the ones already there first, so a re-run does not burn sequence numbers
          WHERE NOT EXISTS (SELECT 1 FROM facilities f WHERE lower(f.name) = lower(t.name) AND f.zip_code = t.zip)
         ON CONFLICT ((lower(name)), zip_code) DO NOTHING
         RETURNING id, name`,
        [
          col(fs, (f) => f.name), col(fs, (f) => f.streetLine), col(fs, (f) => f.city), col(fs, (f) => f.state),
          col(fs, (f) => f.zipCode), col(fs, (f) => f.county), col(fs, (f) => f.latitude), col(fs, (f) => f.longitude),
          col(fs, (f) => f.isActive), col(fs, (f) => JSON.stringify({ phone1: f.phone })),
        ],
      );
      inserted += rows.length;
      const byName = new Map(rows.map((r) => [r.name, r.id]));
      const ds = batch.flatMap((i) => {
        const facilityId = byName.get(benchFacility(i).name);
        return facilityId ? benchDivisions(i).map((d) => ({ ...d, facilityId })) : [];
      });
      if (ds.length === 0) continue;
      // Arrays of arrays cannot go through unnest, so the text[] columns travel as JSON.
      await client.query(
        `INSERT INTO divisions (facility_id, name, type, is_active, contacts, source_type, request_types, document_in_ehr,
                                no_placement, outcome_required, show_billing_code, referring_type, criteria,
                                accepted_patients, genders, veteran_only, extend_maximum_callback_time, score)
         SELECT (d->>'facilityId')::int, d->>'name', d->>'type', (d->>'isActive')::bool, (d->>'contacts')::jsonb,
                d->>'sourceType', ARRAY(SELECT jsonb_array_elements_text(d->'requestTypes')), (d->>'documentInEHR')::bool,
                (d->>'noPlacement')::bool, (d->>'outcomeRequired')::bool, (d->>'showBillingCode')::bool, d->>'referringType',
                CASE WHEN jsonb_typeof(d->'criteria') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(d->'criteria')) END,
                (d->>'acceptedPatients')::jsonb,
                CASE WHEN jsonb_typeof(d->'genders') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(d->'genders')) END,
                (d->>'veteranOnly')::bool, (d->>'extendMaximumCallbackTime')::bool, (d->>'score')::int
           FROM jsonb_array_elements($1::jsonb) d
         ON CONFLICT (facility_id, (lower(name))) DO NOTHING`,
        [JSON.stringify(ds)],
      );
    }
    await client.query('VACUUM (ANALYZE) facilities, divisions');
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM facilities');
    return { inserted, total: rows[0].n };
  } finally {
    if (!opts.client) await client.end();
  }
}

/**
 * The bench database is kept between runs: the facility alerts and messages an earlier run left
 * undelivered would all ring again (the messaging sweep starts their workflows) and load every
 * figure of this run. They are closed as an operator would after an outage, before the benches start.
 */
export async function settleEarlierRuns(client: Client): Promise<{ alerts: number; messages: number }> {
  const alerts = await client.query(`UPDATE facility_alerts SET status = 'escalated', escalated_at = now() WHERE status = 'pending'`);
  const messages = await client.query(
    `UPDATE outbox_messages SET status = 'failed', last_error = 'left by an earlier bench run', updated_at = now()
      WHERE status IN ('queued', 'sending', 'sent', 'ringing', 'queued-at-provider') AND created_at < now() - interval '1 minute'`,
  );
  return { alerts: alerts.rowCount ?? 0, messages: messages.rowCount ?? 0 };
}

if (require.main === module) {
  const n = Number(process.argv[2] ?? 10000);
  if (!Number.isInteger(n) || n < 1) {
    console.error('usage: node seed/dist/bench.js <number of facilities>');
    process.exit(2);
  }
  const started = Date.now();
  connect(databaseUrl())
    .then(async (settle) => {
      try {
        const { alerts, messages } = await settleEarlierRuns(settle);
        if (alerts || messages) console.log(`bench: closed ${alerts} facility alerts and ${messages} messages an earlier run left undelivered`);
      } finally {
        await settle.end();
      }
    })
    .then(() => seedBenchFacilities(n))
    .then(({ inserted, total }) => console.log(`bench facilities: ${inserted} added, ${total} facilities in all (${Date.now() - started} ms)`))
    .catch((err) => {
      console.error('bench seed failed:', err);
      process.exit(1);
    });
}
