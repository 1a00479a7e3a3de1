import type { PoolClient } from 'pg';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';

/**
 * Hand-written SQL on Sequelize's own pool (one database client per process): the surface the
 * case writer and the worker's activities use where a statement says more than a model would
 * (row locks, CTEs that write and audit at once, NOTIFY).
 */
export type Sql = Pick<PoolClient, 'query'>;

/** Each statement on a pooled connection, outside any transaction. */
export function pooledSql(sequelize: Sequelize): Sql {
  return {
    query: async (text: string, params: unknown[] = []) => {
      const rows = (await sequelize.query(text, { bind: params, type: QueryTypes.SELECT, transaction: null })) as unknown[];
      return { rows, rowCount: rows.length };
    },
  } as unknown as Sql;
}

/**
 * Runs `fn` in a Sequelize transaction with its pg connection: models and the audit service
 * called inside join the same transaction (CLS), so everything commits or rolls back together.
 */
export function inTransaction<T>(sequelize: Sequelize, fn: (db: Sql) => Promise<T>): Promise<T> {
  return sequelize.transaction((t: Transaction) => fn(connectionOf(t)));
}

/** The pg connection of a Sequelize transaction. */
export const connectionOf = (t: Transaction): Sql => (t as unknown as { connection: Sql }).connection;
