import { Global, Module } from '@nestjs/common';
import { LiveAccess } from './live-access';
import { LiveGateway } from './live.gateway';
import { LiveService } from './live.service';
import { LiveRelay } from './live-relay';

@Global()
@Module({ providers: [LiveGateway, LiveAccess, LiveService, LiveRelay], exports: [LiveService] })
export class LiveModule {}
