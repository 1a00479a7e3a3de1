import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { HousekeepingService } from './housekeeping.service';

/** Per-process housekeeping on node-cron (see HousekeepingService). */
@Module({ imports: [IdentityModule], providers: [HousekeepingService] })
export class HousekeepingModule {}
