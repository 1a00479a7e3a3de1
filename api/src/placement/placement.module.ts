import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { ClaimsModule } from '../claims/claims.module';
import { CasePlacementsController, PlacementTasksController } from './placement.controller';
import { PlacementService } from './placement.service';

/** Placement (spec 02): tasks, division claims, the call log, callbacks, undo. */
@Module({
  imports: [CasesModule, ClaimsModule],
  controllers: [CasePlacementsController, PlacementTasksController],
  providers: [PlacementService],
  exports: [PlacementService],
})
export class PlacementModule {}
