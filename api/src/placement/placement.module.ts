import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { ClaimsModule } from '../claims/claims.module';
import { CasePlacementsController, PlacementTasksController } from './placement.controller';
import { PlacementService } from './placement.service';
import { AcceptedCasesController, PlacementLogsController } from './placement-logs.controller';
import { PlacementLogsService } from './placement-logs.service';

/** Placement (spec 02): tasks, division claims, the call log, callbacks, undo. */
@Module({
  imports: [CasesModule, ClaimsModule],
  controllers: [AcceptedCasesController, CasePlacementsController, PlacementLogsController, PlacementTasksController],
  providers: [PlacementService, PlacementLogsService],
  exports: [PlacementService],
})
export class PlacementModule {}
