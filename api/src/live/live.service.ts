import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { LIVE_CHANNEL, type LiveEventName, type LiveEvents, type LiveMessage } from '@crisis/forms';

/**
 * Publishes live events through PostgreSQL NOTIFY (LiveRelay emits them to socket.io). Called
 * inside the request's transaction, the event is delivered when the change commits and dropped
 * if it rolls back; outside one, at once.
 */
@Injectable()
export class LiveService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  async publish<E extends LiveEventName>(room: string, event: E, data: LiveEvents[E]): Promise<void> {
    await this.publishAll([{ room, event, data }]);
  }

  /** Several events in one statement (a call-log submit touches many cases). */
  async publishAll(messages: LiveMessage[]): Promise<void> {
    if (!messages.length) return;
    await this.sequelize.query('SELECT pg_notify($1, m) FROM unnest($2::text[]) AS m', {
      bind: [LIVE_CHANNEL, messages.map((m) => JSON.stringify(m))],
    });
  }
}
