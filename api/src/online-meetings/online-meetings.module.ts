import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { config } from '../config';
import { JitsiMeetingProvider, MEETING_PROVIDER } from './meeting-provider';
import { DemoMeetingsController, OnlineMeetingsController } from './online-meetings.controller';
import { OnlineMeetingsService } from './online-meetings.service';

/** Video meetings of requests (spec 01 §4, 02 §2) behind the meeting-provider port (Jitsi Meet). */
@Module({
  imports: [CasesModule],
  controllers: [OnlineMeetingsController, DemoMeetingsController],
  providers: [OnlineMeetingsService, { provide: MEETING_PROVIDER, useFactory: () => new JitsiMeetingProvider(config.meetings) }],
})
export class OnlineMeetingsModule {}
