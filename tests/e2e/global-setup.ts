import { Client } from 'pg';

/**
 * The end-to-end journeys run on the stack the integration suites used just before, as the same
 * demo users from the same address: they start with the request limits of a fresh day (the
 * integration suites spend, for example, the ITP admin's password-change budget).
 */
export default async function globalSetup() {
  if (!process.env.DATABASE_URL) return;
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    await db.query('DELETE FROM rate_limit_counters');
  } finally {
    await db.end();
  }
}
