import type { IncomingMessage, ServerResponse } from 'http';
import { LoggerModule } from 'nestjs-pino';

/** LOG_LEVEL: a pino level (info by default); `verbose` is Nest's word for debug. */
export function logLevel(env: string | undefined = process.env.LOG_LEVEL): string {
  const level = (env ?? 'info').toLowerCase();
  if (level === 'verbose') return 'debug';
  return ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level) ? level : 'info';
}


/**
 * One structured log for the API (pino through nestjs-pino): Nest's own lines and one line per
 * request with the correlation id of spec 03 §8, its status and duration. Nothing a patient could
 * be recognised by: the path without its query (list filters carry names), no headers, no bodies.
 * JSON lines to a file or a collector; pino-pretty when a person watches a terminal.
 */
export const LoggingModule = LoggerModule.forRoot({
  pinoHttp: {
    level: logLevel(),
    // Fastify's request id (the correlation id), which middie copies to the raw request.
    genReqId: (req: IncomingMessage) => req.id ?? '',
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: IncomingMessage) => ({ id: req.id, method: req.method, path: (req.url ?? '').split('?')[0] }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
    quietReqLogger: true,
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss' } } } : {}),
  },
});
