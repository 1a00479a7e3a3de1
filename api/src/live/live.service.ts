import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { LIVE_CHANNEL, type LiveEventName, type LiveEvents } from '@crisis/forms';

/**
 * Publishes live events through PostgreSQL NOTIFY (LiveRelay emits them to socket.io). Called
 * inside the request's transaction, the event is delivered when the change commits and dropped
 * if it rolls back; outside one, at once.
 */
@Injectable()
export class LiveService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  async publish<E extends LiveEventName>(room: string, event: E, data: LiveEvents[E]): Promise<void> {
    await this.sequelize.query('SELECT pg_notify($1, $2)', { bind: [LIVE_CHANNEL, JSON.stringify({ room, event, data })] });
  }
}
