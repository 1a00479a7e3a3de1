import type { Sequelize } from 'sequelize-typescript';
import { preparedRead, type PreparedReadOptions } from './prepared-read';

/**
 * Runs a page query whose rows carry the filtered total (`count(*) OVER ()`), its limit and offset
 * the last two of `bind`. Past the last page no row carries the total: `countSql` (the same FROM
 * and WHERE) counts it on its own, with `options.countBind` (by default `bind` without its limit and
 * offset; PostgreSQL refuses a parameter the statement does not use). `options.plan` as preparedRead's.
 * Returns the rows without their `total` column.
 */
export async function windowedPage<T>(
  sequelize: Sequelize,
  sql: string,
  bind: unknown[],
  countSql: string,
  offset: number,
  { countBind = bind.slice(0, -2), ...options }: PreparedReadOptions & { countBind?: unknown[] } = {},
): Promise<{ rows: T[]; total: number }> {
  const rows = await preparedRead<T & { total: number }>(sequelize, sql, bind, options);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && offset > 0) [{ n: total }] = await preparedRead<{ n: number }>(sequelize, countSql, countBind, options);
  return { rows: rows.map(({ total: _t, ...r }) => r as T), total };
}
