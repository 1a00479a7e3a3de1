/**
 * Attempts to change or remove audit entries as the application's own database connection
 * (DATABASE_URL, the role the API and the worker use), each in a transaction that is rolled back
 * whatever happens, so that a missing guard is reported without losing the log. Read by
 * tests/integration/audit-tamper.test.ts and tests/battery/audit.battery.ts.
 */
import { db } from './db';

export interface TamperAttempt {
  what: string;
  /** The database refused the statement (the append-only triggers). */
  refused: boolean;
  error: string | null;
  /** The entry read back after the attempt equals the one read before. */
  entryUnchanged: boolean;
}

const ATTEMPTS: Array<[string, (id: string) => [string, unknown[]]]> = [
  ['UPDATE one entry', (id) => ['UPDATE audit_log SET success = NOT success, main_action = main_action || \' (edited)\' WHERE id = $1', [id]]],
  ['UPDATE every entry', () => ['UPDATE audit_log SET body = NULL', []]],
  ['DELETE one entry', (id) => ['DELETE FROM audit_log WHERE id = $1', [id]]],
  ['DELETE every entry', () => ['DELETE FROM audit_log', []]],
  ['TRUNCATE the log', () => ['TRUNCATE audit_log', []]],
];

const entry = async (id: string) => JSON.stringify((await db.query('SELECT * FROM audit_log WHERE id = $1', [id])).rows[0] ?? null);

/** Tries each way of rewriting history against the entry `id`; each attempt is rolled back after. */
export async function tamperWithAuditLog(id: string): Promise<TamperAttempt[]> {
  const before = await entry(id);
  if (before === 'null') throw new Error(`no audit entry ${id}`);
  const out: TamperAttempt[] = [];
  for (const [what, statement] of ATTEMPTS) {
    const client = await db.connect();
    let error: string | null = null;
    try {
      await client.query('BEGIN');
      const [sql, params] = statement(id);
      await client.query(sql, params);
    } catch (err: any) {
      error = String(err?.message ?? err);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
    out.push({ what, refused: error !== null, error, entryUnchanged: (await entry(id)) === before });
  }
  return out;
}
