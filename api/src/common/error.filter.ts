import fs from 'fs';
import path from 'path';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import { CORRELATION_ID_HEADER, CodedError, DEFAULT_MESSAGES, ERROR_HEADER, ErrorCode, type CodedErrorBody, type ErrorCodeName } from '@crisis/forms';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UniqueConstraintError, ForeignKeyConstraintError, DatabaseError } from 'sequelize';
import { requestContext } from './request-context';
import { config } from '../config';

const UI_INDEX = path.join(config.uiDist, 'index.html');
/**
 * The UI uses real paths (/facilities/12): any GET outside the API that matched no route is the
 * UI's — but not a built file that does not exist (a chunk of an earlier deployment): that is a
 * 404, so the page's loader sees the failure and loads the new version.
 */
const isUiRoute = (req: FastifyRequest) =>
  req.method === 'GET' && !/^\/(api|socket\.io|identity|assets)(\/|$|\?)/.test(req.url) && fs.existsSync(UI_INDEX);

/** HTTP statuses Nest, Fastify or Node raise on their own, mapped to our codes. */
const CODE_BY_STATUS: Record<number, ErrorCodeName> = {
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  405: ErrorCode.NotFound,
};

/**
 * The coded answer for a bare HTTP status of the framework (body too large, URI too long, headers
 * too large, unsupported type…): a refusal of the request is INV with its own status, so the
 * client still learns which limit it hit; anything else is UNEXP with 500.
 */
export function codedStatus(status: number): { status: number; body: CodedErrorBody } {
  const code = CODE_BY_STATUS[status] ?? (status >= 400 && status < 500 ? ErrorCode.Invalid : ErrorCode.Unexpected);
  return { status: code === ErrorCode.Unexpected ? 500 : status, body: { code, defaultMessage: DEFAULT_MESSAGES[code] } };
}

/** JSON with every character beyond ASCII escaped (`\u0141`): the same value once parsed. */
export const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The headers of a coded answer (spec 03 §8): the x-error JSON and the correlation id. */
export function codedErrorHeaders(body: CodedErrorBody, correlationId: string): Record<string, string> {
  return {
    [CORRELATION_ID_HEADER]: correlationId,
    // Header values must be ASCII: the payload may hold names, so it is URI-encoded inside the JSON,
    // and any other character beyond ASCII (a name in a message) is a JSON \u escape.
    [ERROR_HEADER]: asciiJson({ code: body.code, defaultMessage: body.defaultMessage, payload: encodePayload(body.payload) }),
  };
}

/** Sends a coded error through a Fastify reply (the filter, and the framework's own refusals in main.ts). */
export function sendCodedError(reply: FastifyReply, status: number, body: CodedErrorBody, correlationId: string): void {
  body.correlationId = correlationId;
  reply.status(status).headers(codedErrorHeaders(body, correlationId)).type('application/json; charset=utf-8').send(body);
}

/** Turns every failure into a coded error: header JSON + body + correlation id; never leaks internals. */
@Catch()
export class CodedErrorFilter implements ExceptionFilter {
  private readonly log = new Logger('errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    if (exception instanceof NotFoundException && isUiRoute(request)) {
      reply.type('text/html').send(fs.createReadStream(UI_INDEX));
      return;
    }
    const { status, body } = this.toBody(exception);
    const correlationId = requestContext.getStore()?.correlationId ?? String(request.id);
    if (status >= 500) this.log.error({ err: exception, correlationId, path: request.url }, 'unexpected error');
    sendCodedError(reply, status, body, correlationId);
  }

  private toBody(exception: unknown): { status: number; body: CodedErrorBody } {
    if (exception instanceof CodedError)
      return {
        status: exception.status,
        body: { code: exception.code, defaultMessage: exception.message, payload: exception.payload, fields: exception.fields },
      };
    if (exception instanceof UniqueConstraintError)
      return this.toBody(new CodedError(ErrorCode.NotUnique));
    if (exception instanceof ForeignKeyConstraintError)
      return this.toBody(new CodedError(ErrorCode.Invalid));
    if (exception instanceof DatabaseError && /invalid input syntax|out of range/.test(exception.message))
      return this.toBody(new CodedError(ErrorCode.Invalid));
    const status =
      exception instanceof HttpException
        ? exception.getStatus()
        : typeof (exception as any)?.statusCode === 'number'
          ? (exception as any).statusCode // Fastify's own errors (bad JSON, body too large)
          : 500;
    return codedStatus(status);
  }
}

function encodePayload(payload: unknown): unknown {
  if (payload === undefined || payload === null) return payload;
  return encodeURIComponent(JSON.stringify(payload));
}
