import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CodedError, ErrorCode } from '@crisis/forms';
import { Public } from '../auth/public.decorator';
import { SkipAudit } from '../audit/audit.interceptor';
import { invalid } from '../common/coded-error';
import { config } from '../config';

const SID = /^(SM|CA)[0-9a-f]{32}$/;

/**
 * Demo tools (spec 03 §2 "phone calls, SMS"): a person plays the facility's phone against the
 * local Twilio (./twilio-local) — reads the SMS, replies, answers a call and presses a key. Only
 * in a demo (DEMO_TOOLS=1) with the local Twilio; never with a real Twilio account. Like the
 * outbox, public (the demo's phone has no account) and outside the product's API document.
 */
@ApiExcludeController()
@Public()
@SkipAudit()
@Controller('api/demo-tools/phone')
export class DemoPhoneController {
  private async local<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const base = config.twilio.apiBaseUrl;
    if (!config.demoTools || !base) throw new CodedError(ErrorCode.NotFound);
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new CodedError(ErrorCode.ServiceUnavailable);
    }
    if (res.status === 404) throw new CodedError(ErrorCode.NotFound);
    if (res.status === 409) throw invalid([{ field: 'sid', key: 'notRinging', message: 'The call is not ringing' }]);
    if (!res.ok) throw new CodedError(ErrorCode.ServiceUnavailable);
    return (await res.json()) as T;
  }

  /** What the phones received and sent, newest first (optionally one phone's: to it and from it). */
  @Get('messages')
  async messages(@Query('phone') phone?: string) {
    const all = await this.local<Array<{ to: string; from: string }>>('GET', '/local/messages');
    return phone ? all.filter((m) => m.to === String(phone) || m.from === String(phone)) : all;
  }

  @Get('calls')
  calls(@Query('phone') phone?: string) {
    return this.local('GET', `/local/calls${phone ? `?to=${encodeURIComponent(String(phone).slice(0, 20))}` : ''}`);
  }

  /** The phone `from` texts the platform's number (a reply such as "1" or "STOP"). */
  @Post('messages/reply')
  @HttpCode(200)
  reply(@Body() body: { from?: unknown; body?: unknown } | undefined) {
    const from = typeof body?.from === 'string' ? body.from.trim() : '';
    const text = typeof body?.body === 'string' ? body.body : '';
    const fields = [];
    if (!/^\+[1-9]\d{7,14}$/.test(from)) fields.push({ field: 'from', key: 'format', message: 'A phone number in international format' });
    if (!text.trim() || text.length > 1600) fields.push({ field: 'body', key: 'required', message: 'A message of 1 to 1,600 characters' });
    if (fields.length) throw invalid(fields);
    return this.local('POST', '/local/messages/inbound', { from, to: config.twilio.from, body: text });
  }

  /** The ringing call is answered; `digits` are pressed when the call asks for a key. */
  @Post('calls/:sid/answer')
  @HttpCode(200)
  answer(@Param('sid') sid: string, @Body() body: { digits?: unknown } | undefined) {
    if (!SID.test(sid)) throw new CodedError(ErrorCode.NotFound);
    const digits = typeof body?.digits === 'string' && /^[0-9*#]{1,5}$/.test(body.digits) ? body.digits : undefined;
    return this.local('POST', `/local/calls/${sid}/answer`, digits ? { digits } : {});
  }

  @Post('calls/:sid/decline')
  @HttpCode(200)
  decline(@Param('sid') sid: string) {
    if (!SID.test(sid)) throw new CodedError(ErrorCode.NotFound);
    return this.local('POST', `/local/calls/${sid}/no-answer`);
  }
}
