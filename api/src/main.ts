import 'reflect-metadata';
import { randomUUID } from 'crypto';
import fs from 'fs';
import path from 'path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Pool } from 'pg';
import { CORRELATION_ID_HEADER, CodedError, ERROR_HEADER, ErrorCode, TOKEN_REVOKED_HEADER, storableProblems } from '@crisis/forms';
import { AppModule } from './app.module';
import { config } from './config';
import { formSchemaComponents } from './common/openapi';
import { IdentityServer } from './identity/identity.server';
import { AttemptCounters } from './identity/attempt-counters';
import { rateLimitPluginOptions } from './identity/attempt-limits';
import { PgIoAdapter } from './live/pg-io.adapter';

const EXPOSED_HEADERS = ['Content-Range', 'Content-Disposition', ERROR_HEADER, CORRELATION_ID_HEADER, TOKEN_REVOKED_HEADER];

async function bootstrap() {
  const adapter = new FastifyAdapter({
    // X-Forwarded-For only from the configured proxies (TRUSTED_PROXIES): nobody else picks his address.
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    bodyLimit: 21 * 1024 * 1024,
    // The correlation id of spec 03 §8: taken from the caller when given, otherwise new.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers[CORRELATION_ID_HEADER];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, {
    bodyParser: false,
    // Warnings and errors; LOG_LEVEL=verbose adds Nest's start-up lines (the route table).
    logger: process.env.LOG_LEVEL === 'verbose' ? ['error', 'warn', 'log'] : ['error', 'warn'],
  });
  app.enableCors({ origin: config.corsOrigins, credentials: true, exposedHeaders: EXPOSED_HEADERS });
  app.enableShutdownHooks();

  const wsPool = new Pool({ connectionString: config.databaseUrl, max: 2 });
  app.useWebSocketAdapter(new PgIoAdapter(app, wsPool));

  const fastify = app.getHttpAdapter().getInstance();
  await app.register(require('@fastify/multipart') as never, { limits: { fileSize: 20_971_521, files: 1 } } as never); // uploads: users/upload.ts
  // Rate limits of the routes that ask for one (config.rateLimit), counted in PostgreSQL for every replica.
  await app.register(require('@fastify/rate-limit') as never, rateLimitPluginOptions(app.get(AttemptCounters)) as never);

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
    app.useStaticAssets({ root: config.uiDist, wildcard: false, index: false });
  }
  await app.listen(config.port, config.host);
  console.log(`API listening on ${config.publicUrl}`);
}

bootstrap().catch((err) => {
  console.error('API failed to start:', err);
  process.exit(1);
});
