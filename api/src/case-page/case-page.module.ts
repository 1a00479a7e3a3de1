import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { CasePageController } from './case-page.controller';

/** Read-only look-ups the case page needs beyond GET /api/cases/{id} (the close dialog's divisions). */
@Module({ imports: [CasesModule], controllers: [CasePageController] })
export class CasePageModule {}
