/**
 * Starts the delivery of each outbox row, facility alert and EHR delivery the moment its transaction commits:
 * the writers send a NOTIFY on MESSAGING_CHANNEL with the row (messaging.repository.ts), and each
 * worker process listens. Several workers start the same workflow id, which Temporal keeps once.
 * A notification missed while no worker listened is picked up by the sweep schedule.
 */
import { Client as PgClient } from 'pg';
import type { Client } from '@temporalio/client';
import { deliveryWorkflowStart, ehrDeliveryStart, facilityAlertStart } from '@crisis/workflows';
import { config } from '../config';
import { startOnce } from './messaging.activities';
import { MESSAGING_CHANNEL, type DispatchMessage } from './messaging.repository';

export class MessageDispatcher {
  private pg?: PgClient;
  private stopped = false;

  constructor(
    private readonly temporal: Client,
    private readonly taskQueue: string,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const pg = new PgClient({ connectionString: config.databaseUrl });
    pg.on('notification', (msg) => void this.dispatch(msg.payload));
    pg.on('error', (err) => {
      this.log(`messaging listener lost (${err.message}); reconnecting`);
      pg.end().catch(() => undefined);
      if (this.pg === pg) setTimeout(() => void this.start(), 2000);
    });
    try {
      await pg.connect();
      await pg.query(`LISTEN ${MESSAGING_CHANNEL}`);
      this.pg = pg;
    } catch (err) {
      this.log(`cannot listen for messages (${(err as Error).message}); retrying`);
      pg.end().catch(() => undefined);
      setTimeout(() => void this.start(), 2000);
    }
  }

  private async dispatch(payload: string | undefined): Promise<void> {
    let m: DispatchMessage;
    try {
      m = JSON.parse(payload ?? '') as DispatchMessage;
    } catch {
      return;
    }
    const start =
      m.kind === 'alert'
        ? facilityAlertStart(m.id, config.facilityAlerts)
        : m.kind === 'ehr'
          ? ehrDeliveryStart(m.id, m.round, config.ehrDeliveries)
          : deliveryWorkflowStart(m.id);
    try {
      await startOnce(this.temporal, start, this.taskQueue);
    } catch (err) {
      this.log(`could not start ${start.workflowId} (${(err as Error).message}); the sweep will`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const pg = this.pg;
    this.pg = undefined;
    await pg?.end().catch(() => undefined);
  }
}
