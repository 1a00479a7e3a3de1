import { Global, Module } from '@nestjs/common';
import { UserContextService } from './auth/user-context.service';
import { AuditService } from './audit/audit.service';
import { IdentityKeys } from './identity/identity-keys.service';
import { TemporalClientService } from './temporal/temporal-client.service';

/** Services every domain module uses: user context, audit, identity keys, the Temporal client. */
@Global()
@Module({
  providers: [UserContextService, AuditService, IdentityKeys, TemporalClientService],
  exports: [UserContextService, AuditService, IdentityKeys, TemporalClientService],
})
export class CoreModule {}
