import { createHash } from 'crypto';

const statementNames = new Map<string, string>();

/**
 * A stable name per SQL text, for PostgreSQL's named statements: a connection parses and plans a
 * named text once, then binds it (after five runs, with a generic plan when that is as cheap).
 * The texts named are a bounded set (the read paths' filters × sorts × roles, the case writer's
 * statements), so a small map holds them.
 */
export function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    if (statementNames.size > 2000) statementNames.clear();
    statementNames.set(sql, name);
  }
  return name;
}
