import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { LIVE_CHANNEL, type LiveBroadcast, type LiveMessage } from '@crisis/forms';
import { config } from '../config';
import { LiveGateway } from './live.gateway';

/**
 * The one emitter of live events: every change publishes its event with PostgreSQL NOTIFY inside
 * its own transaction (the API's services through LiveEvents, the worker's activities on their
 * connection), so an event is delivered exactly when its change commits. Every API replica
 * listens and emits to its own sockets only (server.local), so an event reaches each socket once.
 */
@Injectable()
export class LiveRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('live-relay');
  private client?: Client;
  private stopped = false;

  constructor(private readonly gateway: LiveGateway) {}

  async onModuleInit() {
    await this.listen();
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: config.databaseUrl });
    client.on('notification', (msg) => {
      try {
        const { room, rooms, event, data } = JSON.parse(msg.payload ?? '{}') as Partial<LiveMessage & LiveBroadcast>;
        const to = rooms ?? (room ? [room] : []);
        if (event && to.length) this.gateway.server?.local.to(to).emit(event, data);
      } catch {
        /* not ours */
      }
    });
    client.on('error', (err) => {
      this.log.warn(`listener lost (${err.message}); reconnecting`);
      client.end().catch(() => undefined);
      if (this.client === client) setTimeout(() => void this.listen().catch(() => undefined), 2000);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      this.client = client;
    } catch (err) {
      this.log.warn(`cannot listen (${(err as Error).message}); retrying`);
      setTimeout(() => void this.listen().catch(() => undefined), 2000);
    }
  }

  async onApplicationShutdown() {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }
}
