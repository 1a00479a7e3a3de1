import { Module } from '@nestjs/common';
import { defaultStorage, FILE_STORAGE } from '../files/storage';
import { AvatarController } from './avatar.controller';
import { SmsNotificationsController } from './sms-notifications.controller';
import { UserImportController } from './user-import.controller';
import { UserImportService } from './user-import.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/** Users administration (spec 03 §2 /users, §7 Application and user). OutboxService and UserContextService are global. */
@Module({
  controllers: [UsersController, UserImportController, SmsNotificationsController, AvatarController],
  providers: [UsersService, UserImportService, { provide: FILE_STORAGE, useFactory: defaultStorage }],
  exports: [UsersService],
})
export class UsersModule {}
