import type { Client as PgClient, QueryResultRow } from 'pg';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { usePlanMode, type PlanMode } from '../db/plan-mode';
import { statementName } from '../db/statement-names';
import { currentTransaction } from './after-commit';

export interface PreparedReadOptions {
  /**
   * 'generic': PostgreSQL plans the statement once per connection and reuses that plan. For reads
   * whose best plan does not depend on the values bound (pages by status, time, id): left to
   * itself PostgreSQL re-planned the ITP case list on every run (110 custom plans of 110), 2.4 ms
   * each, more than running it. Not for text searches: there the pattern decides the plan.
   * Default 'auto' (PostgreSQL's own choice).
   */
  plan?: PlanMode;
}

/**
 * The read-only hot paths (lists, the case page): a pooled connection of Sequelize's own pool,
 * used directly with a named statement, so PostgreSQL parses and plans each distinct SQL text once
 * per connection and Sequelize's per-query work (bind rewriting, result mapping) is skipped.
 * Inside a request's transaction it runs in that transaction instead (a second connection per
 * request could exhaust the pool, and the read must see the transaction's own writes).
 */
export async function preparedRead<T>(sequelize: Sequelize, sql: string, params: unknown[], options: PreparedReadOptions = {}): Promise<T[]> {
  if (currentTransaction()) return (await sequelize.query(sql, { bind: params, type: QueryTypes.SELECT })) as T[];
  const manager = sequelize.connectionManager;
  const conn = (await manager.getConnection({ type: 'read' })) as unknown as PgClient;
  try {
    await usePlanMode(conn, options.plan ?? 'auto');
    return (await conn.query<T & QueryResultRow>({ name: statementName(sql), text: sql, values: params })).rows;
  } finally {
    manager.releaseConnection(conn as never);
  }
}
