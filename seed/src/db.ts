import { Client } from 'pg';

/** The database the seed writes to: DATABASE_URL, or the default of api/src/config.ts. */
export const databaseUrl = () => process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5433/crisis';

export async function connect(url = databaseUrl()): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs `fn` in one transaction; a lock keyed by `lockKey` keeps two seeders (two replicas starting) apart. */
export async function inTransaction<T>(client: Client, lockKey: string, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Splits `items` into chunks of `size` (multi-row inserts in batches). */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
