import type { Client as PgClient, QueryResultRow } from 'pg';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { statementName } from '../db/statement-names';
import { currentTransaction } from './after-commit';

/**
 * The read-only hot paths (lists, the case page): a pooled connection of Sequelize's own pool,
 * used directly with a named statement, so PostgreSQL parses and plans each distinct SQL text once
 * per connection and Sequelize's per-query work (bind rewriting, result mapping) is skipped.
 * Inside a request's transaction it runs in that transaction instead (a second connection per
 * request could exhaust the pool, and the read must see the transaction's own writes).
 */
export async function preparedRead<T>(sequelize: Sequelize, sql: string, params: unknown[]): Promise<T[]> {
  if (currentTransaction()) return (await sequelize.query(sql, { bind: params, type: QueryTypes.SELECT })) as T[];
  const manager = sequelize.connectionManager;
  const conn = (await manager.getConnection({ type: 'read' })) as unknown as PgClient;
  try {
    return (await conn.query<T & QueryResultRow>({ name: statementName(sql), text: sql, values: params })).rows;
  } finally {
    manager.releaseConnection(conn as never);
  }
}
