import { temporalEnv } from '@crisis/workflows';

/**
 * Configuration, read once from the environment and checked at start-up (fail fast).
 * Every setting has a default that works with `npm start` on a developer machine.
 */
function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function required(name: string, fallback?: string): string {
  const v = process.env[name] ?? fallback;
  if (!v) throw new Error(`${name} is required`);
  return v;
}

/** A comma-separated list from the environment ([] when unset or blank). */
const list = (name: string): string[] =>
  (process.env[name] ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

export function loadConfig() {
  const port = int('PORT', 3000);
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: process.env.HOST ?? '0.0.0.0',
    publicUrl,
    production: process.env.NODE_ENV === 'production',
    /**
     * Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges, comma-separated). Empty
     * by default: the client address is the connection's, so a client cannot claim another one
     * (the IP allow-list and the audit's addresses depend on it).
     */
    trustedProxies: list('TRUSTED_PROXIES'),
    /** Browser origins the API answers cross-origin (CORS); by default only its own. */
    corsOrigins: list('CORS_ORIGINS').length ? list('CORS_ORIGINS') : [new URL(publicUrl).origin],
    databaseUrl: required('DATABASE_URL', 'postgres://postgres:postgres@127.0.0.1:5433/crisis'),
    dbPoolMax: int('DB_POOL_MAX', 20),
    /** TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE and the TLS / API-key settings. */
    temporal: temporalEnv(),
    identity: {
      issuer: `${publicUrl}/identity`,
      clientId: 'admin-ui',
      /** The audience of the API's JWT access tokens. */
      resource: `${publicUrl}/api`,
      /** Secret for the identity server's signed cookies; set it in production. */
      cookieSecret: process.env.APP_SECRET ?? 'dev-only-secret-change-me',
      lockoutMaxFailures: int('LOCKOUT_MAX_FAILURES', 5),
      accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 900),
    },
    claims: {
      defaultSeconds: int('CLAIM_DEFAULT_SECONDS', 60),
    },
    smtpUrl: process.env.SMTP_URL || null,
    smtpFrom: process.env.SMTP_FROM ?? 'no-reply@crisis.local',
    twilio: {
      accountSid: process.env.TWILIO_ACCOUNT_SID || null,
      authToken: process.env.TWILIO_AUTH_TOKEN || null,
      from: process.env.TWILIO_FROM || null,
      /** Only for tests: a local server that speaks Twilio's REST API. */
      apiBaseUrl: process.env.TWILIO_API_BASE_URL || null,
    },
    uiDist: process.env.UI_DIST ?? require('path').resolve(__dirname, '../../admin-ui/dist'),
    /** The outbox page: on by default only when no real e-mail or SMS provider is configured. */
    demoTools:
      process.env.DEMO_TOOLS === 'on' ||
      (process.env.DEMO_TOOLS !== 'off' && !process.env.SMTP_URL && !process.env.TWILIO_ACCOUNT_SID),
    internationalPhones: process.env.INTERNATIONAL_PHONES === 'on',
  };
}
export type AppConfig = ReturnType<typeof loadConfig>;
export const config: AppConfig = loadConfig();
