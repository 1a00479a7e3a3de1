import { Module } from '@nestjs/common';
import { AttemptCounters } from './attempt-counters';
import { AttemptLimits } from './attempt-limits';
import { IdentityServer } from './identity.server';
import { PasswordController } from './password.controller';
import { SignInService } from './sign-in.service';
import { UnlockRequestService } from './unlock-request';

/**
 * The identity server (OpenID Connect provider at /identity, sign-in with lock-out and MFA), the
 * change-password call, and the attempt limits of both (attempt-limits.ts; main.ts registers
 * @fastify/rate-limit on AttemptCounters). IdentityKeys, UserContextService, AuditService and
 * OutboxService come from the global core and outbox modules.
 */
@Module({
  controllers: [PasswordController],
  providers: [IdentityServer, SignInService, UnlockRequestService, AttemptCounters, AttemptLimits],
  exports: [IdentityServer, SignInService, AttemptCounters],
})
export class IdentityModule {}
