import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import { jwtVerify } from 'jose';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { Server, Socket } from 'socket.io';
import { UserContextService } from '../auth/user-context.service';
import { caseScopeSql } from '../cases/case-scope';
import { LiveRoom, isItpStaff } from '@crisis/forms';
import { abilityFor } from '../auth/abilities.guard';
import { config } from '../config';
import { IdentityKeys } from '../identity/identity-keys.service';
import { clientAddressOf } from '../security/client-address';
import { LiveAccess, type LiveRefusal, type LiveSession } from './live-access';

const caseIdOf = (body: unknown): number | null => {
  const v = Number((body as { caseId?: unknown } | null)?.caseId);
  return Number.isInteger(v) && v > 0 && v <= 2147483647 ? v : null;
};

const sessionOf = (socket: Socket): LiveSession | undefined => socket.data.session as LiveSession | undefined;

/**
 * The live channel: socket.io authenticated with the same access token as the API and held to
 * the same rules (LiveAccess: not revoked, active, not locked, not expired, an allowed address) at
 * connection, on every room join, and every LIVE_RECHECK_SECONDS for every socket of this replica;
 * a socket that fails is told 'unauthorized' and dropped (the client does not reconnect by
 * itself). Each socket joins its user's room. Events arrive through LiveRelay (PostgreSQL NOTIFY,
 * after commit). Replicas share rooms through the PostgreSQL adapter (see main.ts).
 */
@WebSocketGateway({ path: '/socket.io', cors: { origin: true, credentials: true } })
export class LiveGateway implements OnGatewayConnection, OnGatewayInit, OnModuleDestroy {
  private readonly log = new Logger('live');
  @WebSocketServer() server!: Server;
  private recheckTimer?: NodeJS.Timeout;
  private rechecking = false;

  constructor(
    private readonly keys: IdentityKeys,
    private readonly users: UserContextService,
    private readonly access: LiveAccess,
    @InjectConnection() private readonly sequelize: Sequelize,
  ) {}

  afterInit() {
    this.recheckTimer = setInterval(() => void this.recheckAll(), config.live.recheckSeconds * 1000);
    this.recheckTimer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.recheckTimer);
  }

  async handleConnection(socket: Socket) {
    const token = (socket.handshake.auth as { token?: string })?.token;
    try {
      if (!token) throw new Error('no token');
      const { payload } = await jwtVerify(token, await this.keys.verificationKeySet(), {
        issuer: config.identity.issuer,
        audience: config.identity.resource,
      });
      const session: LiveSession = {
        userId: Number(payload.sub),
        issuedAt: payload.iat ?? 0,
        expiresAt: payload.exp ?? 0,
        address: clientAddressOf(socket.request),
      };
      if (!Number.isInteger(session.userId)) throw new Error('no user');
      const { user, refusal } = await this.access.check(session);
      if (refusal || !user) return this.drop(socket, refusal ?? 'unknown user');
      socket.data.session = session;
      await socket.join(LiveRoom.user(session.userId));
      // The coordinators: the calls card, and the notifications raised for all of them (one row each).
      if (isItpStaff(user.role)) await socket.join([LiveRoom.calls, LiveRoom.itpStaff]);
      socket.emit('ready', { userId: session.userId });
    } catch {
      this.drop(socket);
    }
  }

  /**
   * The case page joins its case's room while open ('case.updated' after every command). Only a
   * user who may still use the live channel (checked now) and may open the case (the same scope
   * predicate as the case routes) joins; the ack says whether it did.
   */
  @SubscribeMessage('case.join')
  async joinCase(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<{ joined: boolean }> {
    const caseId = caseIdOf(body);
    const session = sessionOf(socket);
    if (!caseId || !session) return { joined: false };
    const { refusal } = await this.access.check(session);
    if (refusal) {
      this.drop(socket, refusal);
      return { joined: false };
    }
    const loaded = await this.users.load(session.userId);
    if (!loaded?.isActive) return { joined: false };
    const bind: unknown[] = [caseId];
    const scope = caseScopeSql(loaded.context, bind);
    const rows = await this.sequelize.query(`SELECT 1 FROM cases c WHERE c.id = $1 AND ${scope}`, { bind, type: QueryTypes.SELECT });
    if (rows.length === 0) return { joined: false };
    await socket.join(LiveRoom.case(caseId));
    return { joined: true };
  }

  /**
   * A queue page joins the queue room while open ('queue.changed' after every case command, ids
   * only): ITP staff and providers, as the ability table gives them a queue.
   */
  @SubscribeMessage('queue.join')
  async joinQueue(@ConnectedSocket() socket: Socket): Promise<{ joined: boolean }> {
    const session = sessionOf(socket);
    if (!session) return { joined: false };
    const { refusal } = await this.access.check(session);
    if (refusal) {
      this.drop(socket, refusal);
      return { joined: false };
    }
    const loaded = await this.users.load(session.userId);
    const ability = loaded?.isActive ? abilityFor(loaded.context) : null;
    if (!ability || !(ability.can('access', 'ItpQueue') || ability.can('access', 'ProviderQueue'))) return { joined: false };
    await socket.join(LiveRoom.queue);
    return { joined: true };
  }

  @SubscribeMessage('queue.leave')
  async leaveQueue(@ConnectedSocket() socket: Socket): Promise<{ left: boolean }> {
    await socket.leave(LiveRoom.queue);
    return { left: true };
  }

  @SubscribeMessage('case.leave')
  async leaveCase(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<{ left: boolean }> {
    const caseId = caseIdOf(body);
    if (!caseId) return { left: false };
    await socket.leave(LiveRoom.case(caseId));
    return { left: true };
  }

  /**
   * Checks every socket of this replica again, with one query for all their users: a user
   * deactivated, locked or signed out everywhere (on any replica), a token past its expiry, an
   * address her organization's allow-list no longer holds — each loses her sockets.
   */
  async recheckAll(): Promise<void> {
    if (this.rechecking || !this.server?.sockets) return;
    this.rechecking = true;
    try {
      const sockets = [...this.server.sockets.sockets.values()].filter((s) => sessionOf(s));
      if (!sockets.length) return;
      const users = await this.access.users([...new Set(sockets.map((s) => sessionOf(s)!.userId))]);
      for (const socket of sockets) {
        const session = sessionOf(socket)!;
        const refusal = await this.access.refusal(session, users.get(session.userId));
        if (refusal) this.drop(socket, refusal);
      }
    } catch (err) {
      this.log.warn(`live sockets could not be checked again (${(err as Error).message}); next try in ${config.live.recheckSeconds} s`);
    } finally {
      this.rechecking = false;
    }
  }

  private drop(socket: Socket, why?: LiveRefusal) {
    if (why && sessionOf(socket)) this.log.log(`live socket of user ${sessionOf(socket)!.userId} dropped: ${why}`);
    socket.emit('unauthorized');
    socket.disconnect(true);
  }
}
