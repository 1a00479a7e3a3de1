import 'reflect-metadata';
import { randomUUID } from 'crypto';
import fs from 'fs';
import { STATUS_CODES } from 'http';
import type { Socket } from 'net';
import path from 'path';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Pool } from 'pg';
import { CORRELATION_ID_HEADER, CodedError, ERROR_HEADER, ErrorCode, TOKEN_REVOKED_HEADER, setInternationalPhones, storableProblems } from '@crisis/forms';
import { AppModule } from './app.module';
import { config } from './config';
import { codedErrorHeaders, codedStatus, sendCodedError } from './common/error.filter';
import { formSchemaComponents } from './common/openapi';
import { securityHeaders } from './common/security-headers';
import { IdentityServer } from './identity/identity.server';
import { AttemptCounters } from './identity/attempt-counters';
import { rateLimitPluginOptions } from './identity/attempt-limits';
import { PgIoAdapter } from './live/pg-io.adapter';

const EXPOSED_HEADERS = ['Content-Range', 'Content-Disposition', ERROR_HEADER, CORRELATION_ID_HEADER, TOKEN_REVOKED_HEADER];

/** The correlation id of spec 03 §8: taken from the caller when given, otherwise new. */
function correlationIdOf(headers: Record<string, string | string[] | undefined>): string {
  const given = headers[CORRELATION_ID_HEADER];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}

// The UI validates forms with ajv, which compiles its schemas into functions in the browser.
const security = securityHeaders(config.publicUrl, { allowEval: true });

/** Starts the API in this process: one Nest application listening on PORT. */
export async function startServer(): Promise<void> {
  setInternationalPhones(config.internationalPhones);
  const adapter = new FastifyAdapter({
    // X-Forwarded-For only from the configured proxies (TRUSTED_PROXIES): nobody else picks his address.
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    bodyLimit: 21 * 1024 * 1024,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => correlationIdOf(req.headers),
    // The router's own refusals (a path that is not valid percent-encoding, a parameter over
    // maxParamLength such as a 121-digit id) come before any hook: coded like every other answer.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.code === 'FST_ERR_BAD_URL' ? 400 : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 500;
      const coded = codedStatus(status);
      reply.headers(security.standalone);
      sendCodedError(reply, coded.status, coded.body, String(request.id));
    },
    // Requests Node's HTTP parser refuses (headers over 16 kB, malformed requests, timeouts) never
    // reach Fastify: answered on the socket, coded too.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const coded = codedStatus(status);
      const correlationId = randomUUID();
      coded.body.correlationId = correlationId;
      const body = JSON.stringify(coded.body);
      const headers: Record<string, string | number> = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
        ...security.standalone,
        ...codedErrorHeaders(coded.body, correlationId),
      };
      const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.end(`HTTP/1.1 ${coded.status} ${STATUS_CODES[coded.status]}\r\n${head}\r\n${body}`);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, {
    bodyParser: false,
    // Nest's lines wait for the pino logger (logging/logging.module.ts).
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.enableCors({ origin: config.corsOrigins, credentials: true, exposedHeaders: EXPOSED_HEADERS });
  app.enableShutdownHooks();

  const wsPool = new Pool({ connectionString: config.databaseUrl, max: 2 });
  // An idle connection that PostgreSQL drops (a restart) is an 'error' event: without a listener
  // it would end the process; the pool opens a new connection on the next use.
  wsPool.on('error', (err) => console.warn(`live channel database connection lost: ${err.message}`));
  app.useWebSocketAdapter(new PgIoAdapter(app, wsPool));

  const fastify = app.getHttpAdapter().getInstance();
  await app.register(require('@fastify/multipart') as never, { limits: { fileSize: 20_971_521, files: 1 } } as never); // uploads: users/upload.ts
  // Rate limits of the routes that ask for one (config.rateLimit), counted in PostgreSQL for every replica.
  await app.register(require('@fastify/rate-limit') as never, rateLimitPluginOptions(app.get(AttemptCounters)) as never);

  // Security headers on every answer (common/security-headers.ts): helmet's set with the UI's
  // policy, then each path's own (API, identity server, the silent sign-in page). Registered
  // before the /identity hand-over below, so the identity server's answers get them too.
  await app.register(require('@fastify/helmet') as never, security.helmet as never);
  fastify.addHook('onRequest', (req, reply, done) => {
    security.applyPathPolicy(req.raw.url ?? '/', reply.raw);
    done();
  });

  // Answers of plugins whose onRequest hook replies before helmet's (the CORS plugin's preflight
  // answers) get the headers here; a refusal that did not go through the CodedErrorFilter (the
  // CORS plugin's answer to an OPTIONS that is not a preflight) gets the coded body.
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!reply.raw.hasHeader('content-security-policy')) reply.headers(security.standalone);
    if (reply.statusCode < 400 || reply.hasHeader(ERROR_HEADER)) return payload;
    const coded = codedStatus(reply.statusCode);
    coded.body.correlationId = String(request.id);
    reply.removeHeader('content-length');
    reply.status(coded.status).headers(codedErrorHeaders(coded.body, String(request.id))).type('application/json; charset=utf-8');
    return JSON.stringify(coded.body);
  });

  // JSON bodies, where an empty body (a bodyless PUT sent with a JSON content type) means none.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body as string);
    } catch {
      return done(Object.assign(new Error('Malformed JSON body'), { statusCode: 400 }), undefined);
    }
    // What the database cannot hold is refused here, before any handler (NUL, absurd nesting, huge numbers).
    const problems = storableProblems(parsed);
    if (problems.length) return done(new CodedError(ErrorCode.Invalid, undefined, problems), undefined);
    done(null, parsed);
  });

  // Form bodies: what Twilio posts to its webhooks (api/src/messaging/twilio-webhooks.controller.ts).
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const parsed = Object.fromEntries(new URLSearchParams(body as string));
    const problems = storableProblems(parsed);
    if (problems.length) return done(new CodedError(ErrorCode.Invalid, undefined, problems), undefined);
    done(null, parsed);
  });

  // The OpenID Connect provider is an Express app (oidc-provider is ESM and Koa-based); it gets
  // /identity requests raw, before Fastify parses anything.
  const identity = await app.get(IdentityServer).handler();
  fastify.addHook('onRequest', (req, reply, done) => {
    if (req.raw.url === '/identity' || req.raw.url?.startsWith('/identity/')) {
      reply.hijack();
      identity(req.raw, reply.raw);
      return;
    }
    done();
  });

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Crisis Placement Platform API')
      .setDescription(
        'Coded errors (spec 03 §8) arrive in the x-error header and the body; list calls follow ra-data-simple-rest (sort, range, filter, Content-Range).',
      )
      .setVersion('0.1.0')
      .addBearerAuth()
      .build(),
  );
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...(formSchemaComponents() as any) } };
  fastify.get('/api/openapi.json', async () => document);

  // The UI's built files; other non-API paths get index.html from the error filter (real routes, no hash).
  if (fs.existsSync(path.join(config.uiDist, 'index.html'))) {
    // The build's .br / .gz twins are sent when the browser accepts them. Files under assets/ are
    // named by their content's hash: cached for a year; index.html (not served from here) never.
    app.useStaticAssets({
      root: config.uiDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // @fastify/static hands its reply here (Nest's option type still names Node's response).
      setHeaders: (res: unknown, filePath: string) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) (res as FastifyReply).header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  await app.listen(config.port, config.host);
  console.log(`API listening on ${config.publicUrl}`);
}
