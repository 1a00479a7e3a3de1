import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { currentTransaction } from '../common/after-commit';
import { connectionOf, pooledSql } from '../db/sql';
import { messagingRepository, type OutgoingMessage } from '../messaging/messaging.repository';

export type { OutgoingMessage };

/**
 * Queues e-mails, SMS and calls. The row is written in the caller's transaction (if any) and is
 * delivered by a Temporal workflow once it commits (api/src/messaging): never inside the HTTP
 * request, retried when the provider fails, and kept in the outbox when no provider is
 * configured (the demo-tools page shows it).
 */
@Injectable()
export class OutboxService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** Queues the message; returns its outbox id (null when its idempotency key was used before). */
  async send(m: OutgoingMessage): Promise<string | null> {
    const t = currentTransaction();
    return messagingRepository.enqueue(t ? connectionOf(t) : pooledSql(this.sequelize), m);
  }
}
