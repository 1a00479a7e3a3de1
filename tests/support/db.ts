import { Pool } from 'pg';

/** Direct access to the test database, to check what a call did (or did not) change. */
export const db = new Pool({ connectionString: process.env.DATABASE_URL, max: 3 });

/** Tables whose rows are the product's data (not logs, sessions or leases). */
const DATA_TABLES = ['facilities', 'divisions', 'users', 'user_divisions', 'group_organizations', 'itp_organization', 'diagnoses'];

/** A fingerprint of the data tables: row counts and the latest update, to prove a refused call changed nothing. */
export async function dataFingerprint(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of DATA_TABLES) {
    const hasUpdated = t !== 'user_divisions' && t !== 'diagnoses';
    const { rows } = await db.query(
      `SELECT count(*)::text AS n${hasUpdated ? ', coalesce(max(updated_at)::text, \'\') AS u' : ''} FROM ${t}`,
    );
    out[t] = `${rows[0].n}|${rows[0].u ?? ''}`;
  }
  return out;
}
