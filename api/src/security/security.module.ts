import { Global, Module } from '@nestjs/common';
import { IpAllowListGuard } from './ip-allow-list.guard';
import { IpAllowListService } from './ip-allow-list.service';

/**
 * IP allow-list enforcement. The guard must run after the AuthGuard (it needs req.user), so it is
 * registered as an APP_GUARD in AppModule's providers, right after AuthGuard; this module
 * provides the service (also used to invalidate the cache when the settings change).
 */
@Global()
@Module({
  providers: [IpAllowListService, IpAllowListGuard],
  exports: [IpAllowListService, IpAllowListGuard],
})
export class SecurityModule {}
