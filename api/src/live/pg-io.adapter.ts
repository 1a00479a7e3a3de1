import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Pool } from 'pg';
import type { ServerOptions } from 'socket.io';

/** socket.io with the PostgreSQL adapter, so events reach sockets connected to any API replica. */
export class PgIoAdapter extends IoAdapter {
  constructor(app: any, private readonly pool: Pool) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions) {
    const server = super.createIOServer(port, options);
    server.adapter(createAdapter(this.pool, { tableName: 'socket_io_attachments' }));
    return server;
  }
}
