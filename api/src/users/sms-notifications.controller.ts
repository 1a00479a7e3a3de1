import { Body, Controller, HttpCode } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Sequelize } from 'sequelize-typescript';
import { QueryTypes } from 'sequelize';
import { isReceivingSms, smsNotificationsStartRules, type SmsNotificationsStartInput, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { UserContextService } from '../auth/user-context.service';
import { afterCommit } from '../common/after-commit';
import { invalid } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { auditValues } from '../common/request-context';
import { schema } from '../common/validation.pipe';
import { Route } from '../common/route';

export interface SmsSettings {
  phone: string | null;
  alwaysReceive: boolean;
  receiveUntil: string | null;
}

/**
 * SMS notification settings of ITP admins, users and providers (spec 03 §3 Notification settings,
 * §5 SMS settings, §7). Stored in users.notifications_receiving_settings; a timed window is
 * cleared after it lapses by the expire-sms-windows schedule (workflows/).
 */
@ApiTags('users')
@Controller('api/user/sms-notifications-receiving')
export class SmsNotificationsController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly contexts: UserContextService,
  ) {}

  @Route('POST', 'start', 'access', 'SmsNotifications', 'User.SmsNotificationsStart')
  @HttpCode(200)
  @ApiSchemaBody('smsNotificationsStart')
  @ApiOkResponse({ description: 'The settings now in force: { phone, alwaysReceive, receiveUntil, isReceiving }' })
  @ApiBadRequestResponse({ description: 'INV: phone required and valid; receiveUntil required unless alwaysReceive, in the future and at most the role limit ahead (12 h ITP admin/user, 24 h provider)' })
  async start(@Body(schema('smsNotificationsStart')) body: SmsNotificationsStartInput, @CurrentUser() user: UserContext) {
    const errors = smsNotificationsStartRules(body, user.role);
    if (errors.length) throw invalid(errors);
    const settings: SmsSettings = {
      phone: body.phone,
      alwaysReceive: body.alwaysReceive,
      receiveUntil: body.alwaysReceive ? null : new Date(body.receiveUntil!).toISOString(),
    };
    return this.save(user.id, settings, {});
  }

  @Route('POST', 'stop', 'access', 'SmsNotifications', 'User.SmsNotificationsStop')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The settings now in force (not receiving; the phone is kept for next time)' })
  async stop(@CurrentUser() user: UserContext) {
    const [row] = await this.sequelize.query<{ s: SmsSettings | null }>(
      'SELECT notifications_receiving_settings AS s FROM users WHERE id = :id FOR UPDATE',
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
    return this.save(user.id, { phone: row?.s?.phone ?? null, alwaysReceive: false, receiveUntil: null }, {});
  }

  private async save(userId: number, settings: SmsSettings, audit: Record<string, unknown>) {
    await this.sequelize.query('UPDATE users SET notifications_receiving_settings = :s::jsonb, updated_at = now() WHERE id = :id', {
      replacements: { s: JSON.stringify(settings), id: userId },
    });
    auditValues({ userId, ...audit, alwaysReceive: settings.alwaysReceive, receiveUntil: settings.receiveUntil });
    this.contexts.invalidate(userId);
    await afterCommit('invalidate user context', async () => this.contexts.invalidate(userId));
    return { ...settings, isReceiving: isReceivingSms(settings) };
  }
}
