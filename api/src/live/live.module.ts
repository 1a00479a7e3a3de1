import { Global, Module } from '@nestjs/common';
import { LiveGateway } from './live.gateway';
import { LiveService } from './live.service';
import { LiveRelay } from './live-relay';

@Global()
@Module({ providers: [LiveGateway, LiveService, LiveRelay], exports: [LiveService] })
export class LiveModule {}
