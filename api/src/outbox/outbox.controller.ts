import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Op } from 'sequelize';
import { CodedError, ErrorCode } from '@crisis/forms';
import { config } from '../config';
import { Public } from '../auth/public.decorator';
import { queryValue } from '../common/list-query';
import { OutboxMessage } from './outbox-message.model';

/** Demo tools (spec 03 §2): the outbox of e-mails, SMS and calls, for a demo with no provider configured. */
@ApiTags('demo-tools')
@Controller('api/demo-tools')
export class OutboxController {
  @Get('outbox')
  // Public on purpose: a demo user reads the MFA code here while signing in. Served only when
  // demo tools are on (DEMO_TOOLS=1, refused in production).
  @Public()
  async list(@Query('channel') rawChannel?: unknown, @Query('to') rawTo?: unknown) {
    if (!config.demoTools) throw new CodedError(ErrorCode.NotFound);
    // A parameter given twice arrives as an array: the last one counts.
    const channel = rawChannel === undefined ? undefined : String(queryValue(rawChannel));
    const to = rawTo === undefined ? undefined : String(queryValue(rawTo));
    if (channel !== undefined && !['email', 'sms', 'call'].includes(channel))
      throw new CodedError(ErrorCode.Invalid, undefined, [{ field: 'channel', key: 'enum', message: 'Invalid value' }]);
    const rows = await OutboxMessage.findAll({
      where: {
        ...(channel ? { channel } : {}),
        ...(to ? { recipient: { [Op.iLike]: to.slice(0, 255) } } : {}),
      },
      order: [['createdAt', 'DESC']],
      limit: 200,
    });
    return rows.map((r) => r.toJSON());
  }
}
