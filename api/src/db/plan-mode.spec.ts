import { autoPlansInTransaction, usePlanMode } from './plan-mode';
import { namedStatements, type Sql } from './sql';

function recordingConnection() {
  const sent: unknown[] = [];
  const conn = { query: (config: unknown) => (sent.push(config), Promise.resolve({ rows: [] })) };
  return { conn, sent };
}

describe('plan modes of pooled connections', () => {
  it('sets a connection to generic plans once, and back to auto only when a read asks for auto', async () => {
    const { conn, sent } = recordingConnection();
    await usePlanMode(conn, 'auto');
    await usePlanMode(conn, 'generic');
    await usePlanMode(conn, 'generic');
    await usePlanMode(conn, 'auto');
    expect(sent).toEqual(['SET plan_cache_mode = force_generic_plan', 'SET plan_cache_mode = auto']);
  });

  it("gives the case writer's named statements PostgreSQL's own plans on a connection a generic read left behind", async () => {
    const { conn, sent } = recordingConnection();
    await usePlanMode(conn, 'generic');
    const db = namedStatements(conn as unknown as Sql);
    await db.query('SELECT $1::int', [1]);
    await db.query('SELECT $1::int', [2]);
    expect(sent.slice(1, 3)).toEqual(['SET plan_cache_mode = auto', expect.objectContaining({ text: 'SELECT $1::int', values: [1] })]);
    expect(sent).toHaveLength(4);
    // Set inside a transaction, which a rollback undoes: the next read sets its mode again.
    await usePlanMode(conn, 'auto');
    expect(sent[4]).toBe('SET plan_cache_mode = auto');
  });

  it('leaves a connection that never ran a generic read alone', async () => {
    const { conn, sent } = recordingConnection();
    await autoPlansInTransaction(conn);
    await usePlanMode(conn, 'auto');
    expect(sent).toEqual([]);
  });
});
