import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { connectionOptions, temporalEnv } from '@crisis/workflows';

/** One lazily opened Temporal client per process (start, signal, update workflows). */
@Injectable()
export class TemporalClientService implements OnApplicationShutdown {
  private readonly env = temporalEnv();
  private connection?: Promise<Connection>;
  private client?: Promise<Client>;

  get taskQueue(): string {
    return this.env.taskQueue;
  }

  get(): Promise<Client> {
    this.client ??= (async () => {
      this.connection = Connection.connect(connectionOptions(this.env));
      return new Client({ connection: await this.connection, namespace: this.env.namespace });
    })().catch((err) => {
      // Temporal was down: forget the failed attempt so the next call connects again.
      this.client = this.connection = undefined;
      throw err;
    });
    return this.client;
  }

  async onApplicationShutdown() {
    if (this.connection) await (await this.connection.catch(() => null))?.close().catch(() => undefined);
  }
}
