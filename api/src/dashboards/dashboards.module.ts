import { Module } from '@nestjs/common';
import { DashboardsController } from './dashboards.controller';

/** The dashboards per role (spec 02 §2 /dashboard). */
@Module({ controllers: [DashboardsController] })
export class DashboardsModule {}
