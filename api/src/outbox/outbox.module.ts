import { Global, Module } from '@nestjs/common';
import { OutboxController } from './outbox.controller';
import { OutboxService } from './outbox.service';

@Global()
@Module({ controllers: [OutboxController], providers: [OutboxService], exports: [OutboxService] })
export class OutboxModule {}
