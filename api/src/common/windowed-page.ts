import type { Sequelize } from 'sequelize-typescript';
import { preparedRead } from './prepared-read';

/**
 * Runs a page query whose rows carry the filtered total (`count(*) OVER ()`), its limit and offset
 * the last two of `bind`. Past the last page no row carries the total: `countSql` (the same FROM
 * and WHERE) counts it on its own. Returns the rows without their `total` column.
 */
export async function windowedPage<T>(sequelize: Sequelize, sql: string, bind: unknown[], countSql: string, offset: number): Promise<{ rows: T[]; total: number }> {
  const rows = await preparedRead<T & { total: number }>(sequelize, sql, bind);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && offset > 0) [{ n: total }] = await preparedRead<{ n: number }>(sequelize, countSql, bind.slice(0, -2));
  return { rows: rows.map(({ total: _t, ...r }) => r as T), total };
}
