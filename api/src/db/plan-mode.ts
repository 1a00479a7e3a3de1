/**
 * PostgreSQL's plan_cache_mode per pooled connection: 'generic' (force_generic_plan) for the named
 * statements of reads that ask for it (preparedRead's `plan`), 'auto' for everything else. The
 * setting only changes named statements; a connection is switched with one SET when the next user
 * wants the other mode, so a connection a generic read left behind never changes the plans of the
 * case writer's named statements (namedStatements) or of a read that did not ask.
 */
export type PlanMode = 'generic' | 'auto';

type Conn = { query(text: string): Promise<unknown> };
// 'unsure': set inside a transaction, which a rollback undoes; the next read sets it again.
const modeOf = new WeakMap<object, PlanMode | 'unsure'>();

/** Outside a transaction: the connection in `mode` for the statements that follow. */
export async function usePlanMode(conn: Conn, mode: PlanMode): Promise<void> {
  if ((modeOf.get(conn) ?? 'auto') === mode) return;
  await conn.query(`SET plan_cache_mode = ${mode === 'generic' ? 'force_generic_plan' : 'auto'}`);
  modeOf.set(conn, mode);
}

/** Inside a transaction (the case writer): back to 'auto' if a generic read left the connection so. */
export async function autoPlansInTransaction(conn: Conn): Promise<void> {
  if ((modeOf.get(conn) ?? 'auto') === 'auto') return;
  await conn.query('SET plan_cache_mode = auto');
  modeOf.set(conn, 'unsure');
}
