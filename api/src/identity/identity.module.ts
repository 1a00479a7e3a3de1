import { Module } from '@nestjs/common';
import { IdentityServer } from './identity.server';
import { PasswordController } from './password.controller';
import { SignInService } from './sign-in.service';
import { UnlockRequestService } from './unlock-request';

/**
 * The identity server (OpenID Connect provider at /identity, sign-in with lock-out and MFA) and
 * the change-password call. IdentityKeys, UserContextService, AuditService and OutboxService come
 * from the global core and outbox modules.
 */
@Module({
  controllers: [PasswordController],
  providers: [IdentityServer, SignInService, UnlockRequestService],
  exports: [IdentityServer, SignInService],
})
export class IdentityModule {}
