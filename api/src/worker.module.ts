import { Module } from '@nestjs/common';
import { CaseWriterModule } from './cases/case-writer.module';
import { DatabaseModule } from './db/database.module';

/** What the Temporal worker boots: the database and the domain modules whose code the activities run. */
@Module({ imports: [DatabaseModule, CaseWriterModule] })
export class WorkerModule {}
