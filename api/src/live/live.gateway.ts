import { Logger } from '@nestjs/common';
import { OnGatewayConnection, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { jwtVerify } from 'jose';
import type { Server, Socket } from 'socket.io';
import { config } from '../config';
import { IdentityKeys } from '../identity/identity-keys.service';

export const userRoom = (userId: number) => `user:${userId}`;

/**
 * The live channel: socket.io authenticated with the same access token as the API; each socket
 * joins its user's room. Events are emitted after commit through LiveService. Replicas share rooms
 * through the PostgreSQL adapter (see main.ts).
 */
@WebSocketGateway({ path: '/socket.io', cors: { origin: true, credentials: true } })
export class LiveGateway implements OnGatewayConnection {
  private readonly log = new Logger('live');
  @WebSocketServer() server!: Server;

  constructor(private readonly keys: IdentityKeys) {}

  async handleConnection(socket: Socket) {
    const token = (socket.handshake.auth as { token?: string })?.token;
    try {
      if (!token) throw new Error('no token');
      const { payload } = await jwtVerify(token, await this.keys.verificationKeySet(), {
        issuer: config.identity.issuer,
        audience: config.identity.resource,
      });
      const userId = Number(payload.sub);
      socket.data.userId = userId;
      await socket.join(userRoom(userId));
      socket.emit('ready', { userId });
    } catch {
      socket.emit('unauthorized');
      socket.disconnect(true);
    }
  }
}
