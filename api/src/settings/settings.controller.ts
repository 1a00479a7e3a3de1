import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IDLE_WARNING_MS, type AppSettings } from '@crisis/forms';
import { Public } from '../auth/public.decorator';
import { config } from '../config';

@ApiTags('application')
@Controller('api')
export class SettingsController {
  /** What the UI needs before sign-in: where the identity server is, and platform switches. */
  @Get('settings')
  @Public()
  @ApiOkResponse({ description: 'Application settings' })
  settings(): AppSettings {
    return {
      productName: 'Crisis Placement Platform',
      identity: {
        authority: config.identity.issuer,
        clientId: config.identity.clientId,
        scope: 'openid profile email offline_access',
        resource: config.identity.resource,
      },
      internationalPhones: config.internationalPhones,
      // The identity server ends an idle sign-in after the same time (SESSION_IDLE_SECONDS, spec's 15 min by default).
      idleLogoutMs: config.identity.sessionIdleSeconds * 1000,
      idleWarningMs: IDLE_WARNING_MS,
      demoTools: config.demoTools,
      version: process.env.npm_package_version ?? '0.1.0',
    };
  }

  @Get('health')
  @Public()
  health() {
    return { status: 'ok' };
  }
}
