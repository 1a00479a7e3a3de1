import { QueryTypes, UniqueConstraintError } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { notUnique } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';

/**
 * Small SQL helpers shared by the reference-data services. Every statement goes through
 * `sequelize.query`, so inside a mutating request it joins the request's transaction (CLS).
 */

export async function select<T extends object>(sequelize: Sequelize, sql: string, bind: unknown[] = []): Promise<T[]> {
  return sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
}

/**
 * One page of a list and the filtered total. `sortColumns` maps the record's field names to SQL
 * expressions (only those reach SQL); the id is the tie-breaker so pages are stable.
 */
export async function listPage<T extends object>(
  sequelize: Sequelize,
  opts: { select: string; from: string; where: string[]; bind: unknown[]; sortColumns: Record<string, string>; q: ListQuery<unknown> },
): Promise<{ rows: T[]; total: number }> {
  const where = opts.where.length ? `WHERE ${opts.where.join(' AND ')}` : '';
  const dir = opts.q.sortOrder === 'DESC' ? 'DESC' : 'ASC';
  const order = `${opts.sortColumns[opts.q.sortField] ?? 'id'} ${dir}, id ${dir}`;
  const n = opts.bind.length;
  const [{ total }] = await select<{ total: number }>(sequelize, `SELECT count(*)::int AS total FROM ${opts.from} ${where}`, opts.bind);
  const rows = total
    ? await select<T>(
        sequelize,
        `SELECT ${opts.select} FROM ${opts.from} ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...opts.bind, opts.q.limit, opts.q.offset],
      )
    : [];
  return { rows, total };
}

/** "contains" for ILIKE, with the pattern characters of the search escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Refuses a value already taken (case-insensitive) among the rows `among` selects, naming the field: 409 INV.NOT.UNIQ. */
export async function assertUnique(sequelize: Sequelize, table: string, column: string, field: string, value: string, exceptId = 0, among = 'true') {
  const rows = await select(sequelize, `SELECT 1 FROM ${table} WHERE lower(${column}) = lower($1) AND id <> $2 AND ${among} LIMIT 1`, [value, exceptId]);
  if (rows.length) throw notUnique([field]);
}

/** A concurrent insert of the same value gets past assertUnique; the unique index still refuses it. */
export async function savingUnique<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw notUnique([field]);
    throw err;
  }
}
