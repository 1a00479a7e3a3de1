import { namedStatements, type Sql } from './sql';

/** A connection that records what each query was sent as. */
function recordingConnection() {
  const sent: unknown[] = [];
  const conn = { query: (config: unknown, params?: unknown[]) => (sent.push(params ? [config, params] : config), Promise.resolve({ rows: [] })) } as unknown as Sql;
  return { conn, sent };
}

describe('namedStatements', () => {
  it('names a parameterized text, the same name every time and on every wrapper of the connection', async () => {
    const { conn, sent } = recordingConnection();
    await namedStatements(conn).query('SELECT $1::int', [1]);
    await namedStatements(conn).query('SELECT $1::int', [2]);
    const [a, b] = sent as Array<{ name: string; text: string; values: unknown[] }>;
    expect(a).toEqual({ name: expect.stringMatching(/^s_[0-9a-f]{24}$/), text: 'SELECT $1::int', values: [1] });
    expect(b.name).toBe(a.name);
    expect(b.values).toEqual([2]);
  });

  it('runs a text without parameters unnamed (it may hold several statements)', async () => {
    const { conn, sent } = recordingConnection();
    await namedStatements(conn).query('SELECT 1; SELECT 2');
    expect(sent).toEqual(['SELECT 1; SELECT 2']);
  });

  it('holds at most 400 named texts per connection: past them a new text runs unnamed, a held one stays named', async () => {
    const { conn, sent } = recordingConnection();
    const db = namedStatements(conn);
    for (let i = 0; i < 400; i++) await db.query(`SELECT $1::int + ${i}`, [i]);
    await db.query('SELECT $1::int + 400', [400]);
    await db.query('SELECT $1::int + 0', [0]);
    expect(sent[400]).toEqual(['SELECT $1::int + 400', [400]]);
    expect(sent[401]).toMatchObject({ name: expect.any(String), text: 'SELECT $1::int + 0' });
    // another connection has its own room
    const other = recordingConnection();
    await namedStatements(other.conn).query('SELECT $1::int + 400', [400]);
    expect(other.sent[0]).toMatchObject({ name: expect.any(String) });
  });
});
