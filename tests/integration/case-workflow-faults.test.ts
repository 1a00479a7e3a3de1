import { Client, Connection } from '@temporalio/client';
import { caseWorkflowId, connectionOptions, runCaseCommand, temporalEnv, type CaseCommand } from '@crisis/workflows';
import { db } from '../support/db';
import { WorkerProcesses } from '../support/worker-process';

/**
 * The case workflow under faults (issue 4 "done means"): a status change sent while no worker
 * runs waits durably; the worker killed in the middle of it loses nothing, and the change is
 * applied exactly once when a worker returns — also when the same command is sent again.
 *
 * Runs its own workers on a task queue of its own (the stack's worker is not touched), against a
 * case written straight to the database so no other workflow exists for it.
 */
describe('case workflow faults', () => {
  const env = temporalEnv();
  const taskQueue = `case-faults-${Date.now()}`;
  const workers = new WorkerProcesses(taskQueue);
  let connection: Connection;
  let client: Client;
  let caseId: number;

  beforeAll(async () => {
    connection = await Connection.connect(connectionOptions(env));
    client = new Client({ connection, namespace: env.namespace });
    const division = (
      await db.query(`SELECT d.id, d.facility_id FROM divisions d JOIN facilities f ON f.id = d.facility_id
                       WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`)
    ).rows[0];
    const patient = (
      await db.query(
        `INSERT INTO patients (first_name, last_name, date_of_birth, gender) VALUES ('Fault', $1, '1980-01-01', 'Female') RETURNING id`,
        [`Tolerance${Date.now()}`],
      )
    ).rows[0].id;
    caseId = (
      await db.query(
        `INSERT INTO cases (patient_id, status, source_facility_id, source_division_id) VALUES ($1, 'PendingAssignment_DocumentationReview', $2, $3) RETURNING id`,
        [patient, division.facility_id, division.id],
      )
    ).rows[0].id;
    await db.query(
      `INSERT INTO case_activities (case_id, status, status_group, kind, initiator_name) VALUES ($1, 'PendingAssignment_DocumentationReview', 'PendingAssignment', 'created', 'test')`,
      [caseId],
    );
    await db.query(`INSERT INTO requests (case_id, type, status, division_id) VALUES ($1, 'Assessment', 'New', $2)`, [caseId, division.id]);
  });

  afterAll(async () => {
    await client?.workflow.getHandle(caseWorkflowId(caseId)).terminate('test over').catch(() => undefined);
    await workers.killAll();
    await connection?.close();
    await db.end();
  });

  // Status changes only: the facility alert's call about the hold writes a line of its own.
  const onHoldRows = async () =>
    (await db.query(`SELECT count(*)::int AS n FROM case_activities WHERE case_id = $1 AND status = 'OnHold_MissingDocumentation' AND kind <> 'alert'`, [caseId])).rows[0].n;

  it('applies a status change once although the worker dies in the middle of it', async () => {
    const command: CaseCommand = {
      kind: 'changeStatus',
      status: 'OnHold_MissingDocumentation',
      note: 'Waiting for the ER notes',
      commandId: `faults-${Date.now()}`,
      actor: { id: 0, name: 'Fault test', userType: 'IntegratedTelehealthPartners_User' },
      expectedStatus: 'PendingAssignment_DocumentationReview',
    };
    // No worker polls the queue yet: the command is accepted by Temporal and waits.
    const pending = runCaseCommand(client, caseId, command, { taskQueue });
    pending.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 700));
    expect(await onHoldRows()).toBe(0);

    // A worker picks it up and is killed while it works on it.
    const first = await workers.start();
    await new Promise((r) => setTimeout(r, 150));
    await workers.kill(first);

    // Another worker finishes what the first left: the caller gets its answer, applied once.
    await workers.start();
    const result = await pending;
    expect(result.state.status).toBe('OnHold_MissingDocumentation');
    expect(await onHoldRows()).toBe(1);
    const row = (await db.query('SELECT status, status_to_resume FROM cases WHERE id = $1', [caseId])).rows[0];
    expect(row).toEqual({ status: 'OnHold_MissingDocumentation', status_to_resume: 'PendingAssignment_DocumentationReview' });

    // The same command sent again (a client retry) returns the same state and writes nothing.
    const again = await runCaseCommand(client, caseId, command, { taskQueue });
    expect(again.state.status).toBe('OnHold_MissingDocumentation');
    expect(await onHoldRows()).toBe(1);
    const commands = await db.query('SELECT count(*)::int AS n FROM case_commands WHERE command_id = $1', [command.commandId]);
    expect(commands.rows[0].n).toBe(1);
  }, 90_000);
});
