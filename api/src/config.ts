import { IDLE_LOGOUT_MS } from '@crisis/forms';
import { temporalEnv } from '@crisis/workflows';

/**
 * Configuration, read once from the environment and checked at start-up (fail fast).
 * Every setting has a default that works with `npm start` on a developer machine.
 */
function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
  return n;
}

function required(env: NodeJS.ProcessEnv, name: string, fallback?: string): string {
  const v = env[name] ?? fallback;
  if (!v) throw new Error(`${name} is required`);
  return v;
}

/** A comma-separated list from the environment ([] when unset or blank). */
const list = (env: NodeJS.ProcessEnv, name: string): string[] =>
  (env[name] ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A development stand-in for APP_SECRET; production refuses to start without the real one. */
const DEV_APP_SECRET = 'dev-only-secret-change-me';

/**
 * The settings production must not run without, and the ones it must not run with. Separate from
 * loadConfig so that the rule is tested without a process (config.spec.ts).
 */
export function productionProblems(env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!env.APP_SECRET) problems.push('APP_SECRET is required with NODE_ENV=production (32 characters or more)');
  else if (env.APP_SECRET.length < 32) problems.push('APP_SECRET must be 32 characters or more');
  // The outbox shows MFA codes and set-password links without sign-in: a demo-only page.
  if (env.DEMO_TOOLS === '1') problems.push('DEMO_TOOLS=1 is for a demo only and is refused with NODE_ENV=production');
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const problems = productionProblems(env);
  if (problems.length) throw new Error(problems.join('; '));
  const port = int(env, 'PORT', 3000);
  // The auto-logout idle time of spec 03 §9, enforced by the identity server too; the absolute cap of a sign-in.
  const sessionIdleSeconds = int(env, 'SESSION_IDLE_SECONDS', IDLE_LOGOUT_MS / 1000);
  const sessionMaxSeconds = int(env, 'SESSION_MAX_SECONDS', 12 * 60 * 60);
  if (sessionIdleSeconds < 1 || sessionMaxSeconds < sessionIdleSeconds) {
    throw new Error('SESSION_IDLE_SECONDS must be 1 or more and SESSION_MAX_SECONDS no less than it');
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl,
    production: env.NODE_ENV === 'production',
    /**
     * Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges, comma-separated). Empty
     * by default: the client address is the connection's, so a client cannot claim another one
     * (the IP allow-list and the audit's addresses depend on it).
     */
    trustedProxies: list(env, 'TRUSTED_PROXIES'),
    /** Browser origins the API answers cross-origin (CORS); by default only its own. */
    corsOrigins: list(env, 'CORS_ORIGINS').length ? list(env, 'CORS_ORIGINS') : [new URL(publicUrl).origin],
    databaseUrl: required(env, 'DATABASE_URL', 'postgres://postgres:postgres@127.0.0.1:5433/crisis'),
    dbPoolMax: int(env, 'DB_POOL_MAX', 20),
    /** TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE and the TLS / API-key settings. */
    temporal: temporalEnv(),
    identity: {
      issuer: `${publicUrl}/identity`,
      clientId: 'admin-ui',
      /** The audience of the API's JWT access tokens. */
      resource: `${publicUrl}/api`,
      /** Key of the identity server's signed cookies and MFA code digests; required in production. */
      cookieSecret: env.APP_SECRET || DEV_APP_SECRET,
      lockoutMaxFailures: int(env, 'LOCKOUT_MAX_FAILURES', 5),
      accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 900),
      /**
       * A sign-in without activity (no token refresh, no visit to the identity server) for this
       * long is over: its refresh token and its identity session expire (SESSION_IDLE_SECONDS).
       */
      sessionIdleSeconds,
      /** However active, a sign-in ends this long after the password was given (SESSION_MAX_SECONDS). */
      sessionMaxSeconds,
      /** Age after which a new token-signing key replaces the current one (identity-keys.service.ts); 0: never. */
      keyRotationDays: int(env, 'KEY_ROTATION_DAYS', 30),
    },
    claims: {
      defaultSeconds: int(env, 'CLAIM_DEFAULT_SECONDS', 60),
      /** The longest lease one claim or renewal grants (a longer wish is cut to it): 5 minutes. */
      maxSeconds: positive(env, 'CLAIM_MAX_SECONDS', 300),
    },
    live: {
      /** How often each replica checks its live sockets again (revoked, deactivated, locked, off the IP allow-list). */
      recheckSeconds: positive(env, 'LIVE_RECHECK_SECONDS', 5),
    },
    smtpUrl: env.SMTP_URL || null,
    smtpFrom: env.SMTP_FROM ?? 'no-reply@crisis.local',
    twilio: {
      accountSid: env.TWILIO_ACCOUNT_SID || null,
      authToken: env.TWILIO_AUTH_TOKEN || null,
      from: env.TWILIO_FROM || null,
      /** A local server that speaks Twilio's REST API (api/src/messaging/twilio-local), for a demo and tests. */
      apiBaseUrl: env.TWILIO_API_BASE_URL || null,
      /**
       * The base URL Twilio calls back (status callbacks, TwiML, replies), which is also what the
       * request signatures are computed over: PUBLIC_URL unless a tunnel or proxy says otherwise.
       */
      webhookBaseUrl: (env.TWILIO_WEBHOOK_BASE_URL || publicUrl).replace(/\/$/, ''),
    },
    /**
     * Facility alerts (forms/src/notifications/facility-alerts.ts): FACILITY_ALERT_ATTEMPTS (3) SMS
     * or calls, FACILITY_ALERT_RETRY_SECONDS (120) apart, before the coordinators are told.
     */
    facilityAlerts: {
      attempts: positive(env, 'FACILITY_ALERT_ATTEMPTS', 3),
      retrySeconds: positive(env, 'FACILITY_ALERT_RETRY_SECONDS', 120),
    },
    /**
     * EHR deliveries (evaluation documents, case outcomes, claims): EHR_RETRY_ATTEMPTS (12) tries,
     * the waits doubling from EHR_RETRY_SECONDS (30) up to 10 minutes (about 40 minutes in all),
     * before the delivery is failed and the coordinators are told.
     */
    ehrDeliveries: {
      attempts: positive(env, 'EHR_RETRY_ATTEMPTS', 12),
      retrySeconds: positive(env, 'EHR_RETRY_SECONDS', 30),
    },
    uiDist: env.UI_DIST ?? require('path').resolve(__dirname, '../../admin-ui/dist'),
    /**
     * The outbox page, public so that a demo user can read an MFA code: only when asked for
     * (`DEMO_TOOLS=1`, which `npm start` and `npm test` set) and never in production.
     */
    demoTools: env.DEMO_TOOLS === '1',
    /** Video meetings (spec 01 §4): Jitsi Meet rooms; a signed join link when an app id and secret are set. */
    meetings: meetingConfig(env),
    internationalPhones: env.INTERNATIONAL_PHONES === 'on',
  };
}
export type AppConfig = ReturnType<typeof loadConfig>;

/**
 * JITSI_BASE_URL (https://meet.jit.si); JITSI_APP_ID and JITSI_APP_SECRET together, or neither
 * (the prosody token module's app id and shared secret: join links then carry a signed JWT);
 * MEETING_IDLE_MINUTES (60): a meeting nobody joins for this long ends; MEETING_REMINDER_MINUTES
 * (5): the VideoCallIsAboutToStart notification comes this long before a scheduled meeting.
 */
export function meetingConfig(env: NodeJS.ProcessEnv) {
  const baseUrl = (env.JITSI_BASE_URL || 'https://meet.jit.si').replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new Error(`JITSI_BASE_URL must be a URL, got "${baseUrl}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('JITSI_BASE_URL must be an http(s) URL');
  const appId = env.JITSI_APP_ID || null;
  const appSecret = env.JITSI_APP_SECRET || null;
  if (!appId !== !appSecret) throw new Error('JITSI_APP_ID and JITSI_APP_SECRET are set together');
  return {
    jitsiBaseUrl: baseUrl,
    jitsiAppId: appId,
    jitsiAppSecret: appSecret,
    idleMinutes: positive(env, 'MEETING_IDLE_MINUTES', 60),
    reminderMinutes: int(env, 'MEETING_REMINDER_MINUTES', 5),
  };
}
export type MeetingConfig = ReturnType<typeof meetingConfig>;
export const config: AppConfig = loadConfig();
