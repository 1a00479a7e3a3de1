import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import cron, { type ScheduledTask } from 'node-cron';
import { Sequelize } from 'sequelize-typescript';
import { UserContextService } from '../auth/user-context.service';
import { AttemptCounters } from '../identity/attempt-counters';
import { purgeExpiredPayloads } from '../identity/oidc-adapter';

/**
 * What each API process does for itself, on node-cron (the split, README "Periodic work"):
 * idempotent clean-ups that any replica may run at the same moment as another, and the caches of
 * this process. What must happen once for the cluster (claims and callbacks sweeps, SMS windows,
 * inactivity lock, the messaging sweep) runs on Temporal schedules instead (workflows/src/schedules.ts).
 */
@Injectable()
export class HousekeepingService implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('housekeeping');
  private readonly tasks: ScheduledTask[] = [];

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly counters: AttemptCounters,
    private readonly contexts: UserContextService,
  ) {}

  /** The jobs: name, cron expression, work. */
  private readonly jobs: Array<[string, string, () => Promise<unknown>]> = [
    // Expired sessions, grants and codes of the identity server, and spent MFA codes.
    ['purge expired identity rows', '*/10 * * * *', () => purgeExpiredPayloads(this.sequelize)],
    // Sign-in attempt counters whose window is over.
    ['purge expired attempt counters', '*/5 * * * *', () => this.counters.purgeExpired()],
    // The user-context cache drops expired entries only when read: free their memory.
    ['prune the user-context cache', '* * * * *', async () => this.contexts.pruneCache()],
  ];

  onModuleInit() {
    for (const [name, expression, work] of this.jobs) {
      this.tasks.push(
        cron.schedule(expression, () => void work().catch((err: Error) => this.log.warn(`${name} failed: ${err.message}`)), {
          name,
          // A run still going when the next is due is skipped, not stacked.
          noOverlap: true,
        }),
      );
    }
  }

  async onApplicationShutdown() {
    for (const t of this.tasks) await t.stop();
  }
}
