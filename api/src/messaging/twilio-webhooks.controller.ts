import { Body, Controller, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import twilio from 'twilio';
import { Public } from '../auth/public.decorator';
import { SkipAudit } from '../audit/audit.interceptor';
import { CodedError, ErrorCode } from '@crisis/forms';
import { hasValidTwilioSignature } from './twilio-gateway';
import { TwilioWebhooksService } from './twilio-webhooks.service';

type Params = Record<string, string>;

/**
 * Twilio's webhooks: configure, on the Twilio number, "A message comes in" →
 * POST {TWILIO_WEBHOOK_BASE_URL}/api/twilio/messages/inbound; the others are given by the platform
 * with each message and call. Only Twilio calls them: every request must carry Twilio's valid
 * signature for its URL, else 403 and nothing changes. Not part of the product's API document
 * (no user calls them) and not in the audit log (they are Twilio's, not a user's; what they
 * change is written to the case activity by the alert's workflow).
 */
@ApiExcludeController()
@Public()
@SkipAudit()
@Controller('api/twilio')
export class TwilioWebhooksController {
  constructor(private readonly webhooks: TwilioWebhooksService) {}

  private check(req: FastifyRequest, signature: string | undefined, params: unknown): Params {
    const p = (params && typeof params === 'object' ? params : {}) as Params;
    if (!hasValidTwilioSignature(signature, req.url, p)) throw new CodedError(ErrorCode.Forbidden, undefined, undefined, 'Invalid Twilio signature');
    return p;
  }

  private twiml(reply: FastifyReply, response: InstanceType<typeof twilio.twiml.VoiceResponse> | InstanceType<typeof twilio.twiml.MessagingResponse>) {
    reply.header('content-type', 'text/xml; charset=utf-8');
    return response.toString();
  }

  @Post('messages/status')
  @HttpCode(204)
  async messageStatus(@Req() req: FastifyRequest, @Headers('x-twilio-signature') sig: string | undefined, @Body() body: unknown) {
    const p = this.check(req, sig, body);
    await this.webhooks.status(p.MessageSid, p.MessageStatus);
  }

  @Post('calls/status')
  @HttpCode(204)
  async callStatus(@Req() req: FastifyRequest, @Headers('x-twilio-signature') sig: string | undefined, @Body() body: unknown) {
    const p = this.check(req, sig, body);
    await this.webhooks.status(p.CallSid, p.CallStatus);
  }

  @Post('messages/inbound')
  @HttpCode(200)
  async inbound(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Headers('x-twilio-signature') sig: string | undefined, @Body() body: unknown) {
    const p = this.check(req, sig, body);
    const text = await this.webhooks.inboundSms(p.From, p.Body);
    const response = new twilio.twiml.MessagingResponse();
    if (text) response.message(text);
    return this.twiml(reply, response);
  }

  /** The TwiML of an outgoing call (outbox row {id}): the message, and for an alert the key to press. */
  @Post('voice/messages/:id')
  @HttpCode(200)
  async voice(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Headers('x-twilio-signature') sig: string | undefined, @Body() body: unknown, @Param('id') id: string) {
    this.check(req, sig, body);
    const call = /^\d{1,18}$/.test(id) ? await this.webhooks.callTwiml(id) : null;
    const response = new twilio.twiml.VoiceResponse();
    if (!call) {
      response.hangup();
      return this.twiml(reply, response);
    }
    if (call.alertId) {
      // Said twice: the first words of a call are often missed.
      const gather = response.gather({ numDigits: 1, action: `/api/twilio/voice/messages/${id}/gather`, method: 'POST', timeout: 8 });
      gather.say(call.text);
      gather.say(call.text);
      response.say('No key was pressed. We will call again.');
    } else response.say(call.text);
    return this.twiml(reply, response);
  }

  @Post('voice/messages/:id/gather')
  @HttpCode(200)
  async gather(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Headers('x-twilio-signature') sig: string | undefined, @Body() body: unknown, @Param('id') id: string) {
    const p = this.check(req, sig, body);
    const confirmed = /^\d{1,18}$/.test(id) ? await this.webhooks.keyPressed(id, p.Digits) : false;
    const response = new twilio.twiml.VoiceResponse();
    response.say(confirmed ? 'Thank you. Your confirmation was recorded. Goodbye.' : 'No confirmation was recorded. We will call again. Goodbye.');
    response.hangup();
    return this.twiml(reply, response);
  }
}
