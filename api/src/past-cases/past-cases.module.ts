import { Module } from '@nestjs/common';
import { PastCasesController } from './past-cases.controller';

/** Past cases: the page and its CSV exports (spec 02 §2, §7). */
@Module({ controllers: [PastCasesController] })
export class PastCasesModule {}
