import { Client, Connection } from '@temporalio/client';
import {
  claimWorkflowId,
  connectionOptions,
  extendClaimSignal,
  queryClaimLease,
  releaseClaimLease,
  startClaimLease,
  temporalEnv,
} from '@crisis/workflows';
import { eventually } from '../support/api';
import { db } from '../support/db';

/**
 * The claim lease workflow itself, driven directly (no API) against the real Temporal server and
 * the worker `npm test` runs, with rows written straight to the claims table. It proves the two
 * properties the API relies on: the database is the truth (a renewal the workflow never heard of
 * still wins), and a long-lived lease survives continue-as-new.
 */
describe('claim lease workflow', () => {
  const env = temporalEnv();
  let connection: Connection;
  let client: Client;
  let subjectId: number;

  beforeAll(async () => {
    connection = await Connection.connect(connectionOptions(env));
    client = new Client({ connection, namespace: env.namespace });
    await db.query(`SELECT setval('claims_id_seq', GREATEST((SELECT last_value FROM claims_id_seq), 1000))`);
    subjectId = (await db.query('SELECT min(id) AS id FROM users')).rows[0].id;
  });

  afterAll(async () => {
    await connection?.close();
    await db.end();
  });

  async function newClaim(seconds: number): Promise<{ id: string; expiresAt: string }> {
    const { rows } = await db.query(
      `INSERT INTO claims (object_type, object_id, subject_id, subject_name, expires_at)
       VALUES ('LeaseTest', $1, $2, 'Lease Test', now() + make_interval(secs => $3)) RETURNING id, expires_at`,
      [`${Date.now()}-${Math.random()}`, subjectId, seconds],
    );
    await db.query(`UPDATE claims SET workflow_id = 'claim-' || id WHERE id = $1`, [rows[0].id]);
    return { id: rows[0].id, expiresAt: rows[0].expires_at.toISOString() };
  }
  const row = async (id: string) => (await db.query('SELECT * FROM claims WHERE id = $1', [id])).rows[0];

  it('respects a renewal written to the database that it was never told of', async () => {
    const c = await newClaim(2);
    await startClaimLease(client, { claimId: c.id, expiresAt: c.expiresAt }, { taskQueue: env.taskQueue });
    // Renew in the database only: no signal reaches the workflow.
    await db.query(`UPDATE claims SET expires_at = now() + interval '5 seconds' WHERE id = $1`, [c.id]);
    const renewedUntil = new Date((await row(c.id)).expires_at).getTime();

    // Past the expiry the workflow knew of (+ reaction time): it asked the database and kept waiting.
    await eventually(async () => Date.now() > Date.parse(c.expiresAt) + 1500, 'the first expiry to pass', 10_000);
    expect((await row(c.id)).released_at).toBeNull();
    const state = await queryClaimLease(client, c.id);
    expect(state).toMatchObject({ released: false });
    expect(Date.parse(state!.expiresAt)).toBe(renewedUntil);

    // Then, with no further renewal, it releases the claim as expired.
    const released = await eventually(async () => ((await row(c.id)).released_at ? row(c.id) : null), 'the release', 15_000);
    expect(released.release_reason).toBe('expired');
    expect(await client.workflow.getHandle(claimWorkflowId(c.id)).result()).toEqual({ claimId: String(c.id), outcome: 'expired' });
  });

  it('keeps a long-lived lease across continue-as-new and ends on release', async () => {
    const c = await newClaim(120);
    const handle = await startClaimLease(client, { claimId: c.id, expiresAt: c.expiresAt }, { taskQueue: env.taskQueue });
    const firstRunId = (await handle.describe()).runId;
    const later = new Date(Date.parse(c.expiresAt) + 60_000).toISOString();
    await db.query('UPDATE claims SET expires_at = $2 WHERE id = $1', [c.id, later]);

    const wf = client.workflow.getHandle(claimWorkflowId(c.id));
    for (let i = 0; i < 510; i += 30) await Promise.all(Array.from({ length: 30 }, () => wf.signal(extendClaimSignal, { expiresAt: later })));

    const newRun = await eventually(async () => {
      const d = await wf.describe();
      return d.runId !== firstRunId && d.status.name === 'RUNNING' ? d : null;
    }, 'continue-as-new', 20_000);
    expect(newRun.historyLength).toBeLessThan(500);
    const state = await eventually(async () => {
      const s = await queryClaimLease(client, c.id);
      return s && s.extensions < 100 && Date.parse(s.expiresAt) === Date.parse(later) ? s : null;
    }, 'the new run to carry the expiry over', 10_000);
    expect(state.released).toBe(false);

    await db.query(`UPDATE claims SET released_at = now(), release_reason = 'released' WHERE id = $1`, [c.id]);
    expect(await releaseClaimLease(client, c.id)).toBe(true);
    expect(await wf.result()).toEqual({ claimId: String(c.id), outcome: 'released' });
    // Nothing runs any more: a second release is a no-op.
    expect(await releaseClaimLease(client, c.id)).toBe(false);
  }, 60_000);
});
