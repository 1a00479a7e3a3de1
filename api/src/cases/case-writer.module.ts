import { Module } from '@nestjs/common';
import { SequelizeModule } from '@nestjs/sequelize';
import { AuditEntry } from '../audit/audit-entry.model';
import { AuditService } from '../audit/audit.service';
import { CaseCommandsHandler } from './case-commands.handler';
import { Case } from './models/case.model';
import { CaseActivity } from './models/case-activity.model';
import { CaseRequest } from './models/case-request.model';

/** The one writer of cases, requests and case activity rows; used by the API and booted by the worker. */
@Module({
  imports: [SequelizeModule.forFeature([AuditEntry, Case, CaseRequest, CaseActivity])],
  providers: [CaseCommandsHandler, AuditService],
  exports: [CaseCommandsHandler],
})
export class CaseWriterModule {}
