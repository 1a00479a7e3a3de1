import type { PoolClient } from 'pg';
import { autoPlansInTransaction } from './plan-mode';
import { statementName } from './statement-names';
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

/** Named statements a connection holds at most through namedStatements; past it, texts run unnamed. */
const NAMED_PER_CONNECTION = 400;
const namedOn = new WeakMap<object, Set<string>>();

/**
 * The connection with its parameterized statements named (statementName): PostgreSQL parses and
 * plans each text once per connection instead of on every run. For the transactions of a hot
 * path whose statements are a fixed set (the case writer: a completed evaluation runs about
 * twenty). A connection keeps at most NAMED_PER_CONNECTION of them, so a text built with values
 * inside it cannot grow a connection's memory without bound. Texts without parameters run
 * unnamed (they may hold several statements, which a named statement may not).
 */
export function namedStatements(conn: Sql): Sql {
  let named = namedOn.get(conn);
  if (!named) namedOn.set(conn, (named = new Set()));
  const held = named;
  let planModeChecked: Promise<void> | undefined;
  return {
    query: async (text: unknown, params?: unknown[]) => {
      if (typeof text !== 'string' || !params?.length) return (conn.query as (t: unknown, p?: unknown[]) => unknown)(text, params);
      await (planModeChecked ??= autoPlansInTransaction(conn as never));
      const name = statementName(text);
      if (!held.has(name)) {
        if (held.size >= NAMED_PER_CONNECTION) return conn.query(text, params);
        held.add(name);
      }
      return conn.query({ name, text, values: params });
    },
  } as unknown as Sql;
}
