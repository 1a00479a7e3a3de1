import { Module } from '@nestjs/common';
import { CaseWriterModule } from './cases/case-writer.module';
import { DatabaseModule } from './db/database.module';
import { EhrModule } from './ehr/ehr.module';

/** What the Temporal worker boots: the database and the domain modules whose code the activities run (the case writer, the EHR port). */
@Module({ imports: [DatabaseModule, CaseWriterModule, EhrModule] })
export class WorkerModule {}
