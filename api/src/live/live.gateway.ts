import { Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { ConnectedSocket, MessageBody, OnGatewayConnection, SubscribeMessage, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { jwtVerify } from 'jose';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { Server, Socket } from 'socket.io';
import { UserContextService } from '../auth/user-context.service';
import { caseScopeSql } from '../cases/case-scope';
import { LiveRoom, isItpStaff } from '@crisis/forms';
import { config } from '../config';
import { IdentityKeys } from '../identity/identity-keys.service';

const caseIdOf = (body: unknown): number | null => {
  const v = Number((body as { caseId?: unknown } | null)?.caseId);
  return Number.isInteger(v) && v > 0 && v <= 2147483647 ? v : null;
};

/**
 * The live channel: socket.io authenticated with the same access token as the API; each socket
 * joins its user's room. Events arrive through LiveRelay (PostgreSQL NOTIFY, after commit). Replicas share rooms
 * through the PostgreSQL adapter (see main.ts).
 */
@WebSocketGateway({ path: '/socket.io', cors: { origin: true, credentials: true } })
export class LiveGateway implements OnGatewayConnection {
  private readonly log = new Logger('live');
  @WebSocketServer() server!: Server;

  constructor(
    private readonly keys: IdentityKeys,
    private readonly users: UserContextService,
    @InjectConnection() private readonly sequelize: Sequelize,
  ) {}

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
      await socket.join(LiveRoom.user(userId));
      const loaded = await this.users.load(userId);
      if (loaded?.isActive && isItpStaff(loaded.context.role)) await socket.join(LiveRoom.calls);
      socket.emit('ready', { userId });
    } catch {
      socket.emit('unauthorized');
      socket.disconnect(true);
    }
  }

  /**
   * The case page joins its case's room while open ('case.updated' after every command). Only a
   * user who may open the case (the same scope predicate as the case routes) joins; the ack says
   * whether it did.
   */
  @SubscribeMessage('case.join')
  async joinCase(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<{ joined: boolean }> {
    const caseId = caseIdOf(body);
    const userId = socket.data.userId as number | undefined;
    if (!caseId || !userId) return { joined: false };
    const loaded = await this.users.load(userId);
    if (!loaded?.isActive) return { joined: false };
    const bind: unknown[] = [caseId];
    const scope = caseScopeSql(loaded.context, bind);
    const rows = await this.sequelize.query(`SELECT 1 FROM cases c WHERE c.id = $1 AND ${scope}`, { bind, type: QueryTypes.SELECT });
    if (rows.length === 0) return { joined: false };
    await socket.join(LiveRoom.case(caseId));
    return { joined: true };
  }

  @SubscribeMessage('case.leave')
  async leaveCase(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<{ left: boolean }> {
    const caseId = caseIdOf(body);
    if (!caseId) return { left: false };
    await socket.leave(LiveRoom.case(caseId));
    return { left: true };
  }
}
