import { Module } from '@nestjs/common';
import { DemoPhoneController } from './demo-phone.controller';
import { TwilioWebhooksController } from './twilio-webhooks.controller';
import { TwilioWebhooksService } from './twilio-webhooks.service';

/** What leaves the platform and what comes back: Twilio's webhooks (the delivery runs in the worker). */
@Module({ controllers: [TwilioWebhooksController, DemoPhoneController], providers: [TwilioWebhooksService] })
export class MessagingModule {}
