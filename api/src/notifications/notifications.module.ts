import { Module } from '@nestjs/common';
import { NotificationsController, UserNotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';

/** In-app notifications (spec 02 §2 bell, §4, §7): the user's lists and their changes. Raised by the case writer. */
@Module({
  controllers: [UserNotificationsController, NotificationsController],
  providers: [NotificationsService],
})
export class NotificationsModule {}
