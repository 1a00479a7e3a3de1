import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { ClaimObjects } from './claim-objects';
import { ClaimsController } from './claims.controller';
import { ClaimsService } from './claims.service';

/**
 * Claims (leases) of spec 03 §7 on the objects of the claim rules (forms/src/claims.ts); a case's
 * scope comes from the case domain, the Temporal client from the global CoreModule.
 */
@Module({
  imports: [CasesModule],
  controllers: [ClaimsController],
  providers: [ClaimsService, ClaimObjects],
  exports: [ClaimsService],
})
export class ClaimsModule {}
