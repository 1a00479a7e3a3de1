import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { config } from '../config';

/** One lazily opened Temporal client per process (start, signal, update workflows). */
@Injectable()
export class TemporalClientService implements OnApplicationShutdown {
  private connection?: Promise<Connection>;
  private client?: Promise<Client>;

  get(): Promise<Client> {
    this.client ??= (async () => {
      this.connection = Connection.connect({ address: config.temporal.address });
      return new Client({ connection: await this.connection, namespace: config.temporal.namespace });
    })();
    return this.client;
  }

  async onApplicationShutdown() {
    if (this.connection) await (await this.connection).close().catch(() => undefined);
  }
}
