import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditLogController } from './audit-log.controller';
import { AuditLogService } from './audit-log.service';
import { GuardRefusalAudit } from './guard-refusal-audit';

/**
 * Reading the audit log (spec 03 §7 Audit log); writing stays with AuditService, its interceptor
 * and GuardRefusalAudit (calls refused by a route guard).
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [AuditLogController],
  providers: [AuditLogService, GuardRefusalAudit],
})
export class AuditLogModule {}
