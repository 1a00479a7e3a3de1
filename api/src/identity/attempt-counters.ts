import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { createHash } from 'crypto';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';

/**
 * Counters with an expiry, in PostgreSQL (table rate_limit_counters), so that every API replica
 * counts the same attempts: the request limits of the sign-in steps and of @fastify/rate-limit
 * (its store, below), and the failure streaks behind the progressive sign-in delay. Each change is
 * one atomic statement (INSERT … ON CONFLICT … DO UPDATE … RETURNING): parallel requests cannot
 * slip between a read and a write.
 */

/** A progressive delay: `free` failures, then `firstDelayMs` doubled per further failure up to `maxDelayMs`. */
export interface DelayPolicy {
  free: number;
  firstDelayMs: number;
  maxDelayMs: number;
  /** The streak is forgotten after this long without a failure. */
  forgetAfterMs: number;
}

/** The wait a streak of `failures` imposes before the next attempt (0: none). */
export function delayAfter(failures: number, policy: DelayPolicy): number {
  if (failures < policy.free) return 0;
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(failures - policy.free, 40));
}

/**
 * The stored key: the bucket in clear, the rest (e-mails, addresses, user ids) as a digest, so
 * that the table holds no e-mail of a non-user and keys have a bounded length.
 */
export function counterKey(bucket: string, ...parts: (string | number)[]): string {
  return `${bucket}:${createHash('sha256').update(parts.map(String).join('\n')).digest('base64url').slice(0, 27)}`;
}

/** The delay of a streak, in SQL, for the row `c` (the same formula as delayAfter). */
const DELAY_SQL = `CASE WHEN c.hits < :free THEN 0 ELSE least(:maxDelayMs, :firstDelayMs * power(2, least(c.hits - :free, 40))) END`;

@Injectable()
export class AttemptCounters {

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** One hit in a fixed window of `windowMs`: the hits so far (this one included) and when the window ends. */
  async hit(key: string, windowMs: number): Promise<{ hits: number; resetInMs: number }> {
    const [row] = await this.query<{ hits: number; reset_in_ms: string }>(
      `INSERT INTO rate_limit_counters AS c (key, hits, last_hit_at, expires_at)
       VALUES (:key, 1, now(), now() + make_interval(secs => :windowMs / 1000.0))
       ON CONFLICT (key) DO UPDATE
          SET hits = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.hits + 1 END,
              last_hit_at = now(),
              expires_at = CASE WHEN c.expires_at <= now() THEN EXCLUDED.expires_at ELSE c.expires_at END
       RETURNING hits, greatest(0, ceil(extract(epoch FROM expires_at - now()) * 1000)) AS reset_in_ms`,
      { key, windowMs },
    );
    return { hits: row.hits, resetInMs: Number(row.reset_in_ms) };
  }

  /**
   * Counts an attempt in a failure streak, unless the streak's delay has not yet passed: then
   * nothing is counted and the wait is returned. The attempt is counted before it is tried (so
   * that parallel attempts see each other); refund() takes it back when it turns out right.
   */
  async countFailure(key: string, policy: DelayPolicy): Promise<{ counted: true; failures: number } | { counted: false; waitMs: number }> {
    const params = { key, ...policy };
    const [counted] = await this.query<{ hits: number }>(
      `INSERT INTO rate_limit_counters AS c (key, hits, last_hit_at, expires_at)
       VALUES (:key, 1, now(), now() + make_interval(secs => :forgetAfterMs / 1000.0))
       ON CONFLICT (key) DO UPDATE
          SET hits = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.hits + 1 END,
              last_hit_at = now(),
              expires_at = now() + make_interval(secs => :forgetAfterMs / 1000.0)
        WHERE c.expires_at <= now() OR c.last_hit_at + make_interval(secs => (${DELAY_SQL}) / 1000.0) <= now()
       RETURNING hits`,
      params,
    );
    if (counted) return { counted: true, failures: counted.hits };
    const [waiting] = await this.query<{ wait_ms: string }>(
      `SELECT greatest(1, ceil(extract(epoch FROM c.last_hit_at + make_interval(secs => (${DELAY_SQL}) / 1000.0) - now()) * 1000)) AS wait_ms
         FROM rate_limit_counters c WHERE c.key = :key`,
      params,
    );
    return { counted: false, waitMs: Number(waiting?.wait_ms ?? 1000) };
  }

  /** A counted attempt failed now: its streak's delay runs from this moment, not from when it was counted. */
  async touch(keys: string[]): Promise<void> {
    await this.query(`UPDATE rate_limit_counters SET last_hit_at = now() WHERE key IN (:keys)`, { keys });
  }

  /** Takes back one counted attempt (it was not a failure after all). */
  async refund(key: string): Promise<void> {
    await this.query(`UPDATE rate_limit_counters SET hits = greatest(hits - 1, 0) WHERE key = :key`, { key });
  }

  /** Ends a streak. */
  async clear(key: string): Promise<void> {
    await this.query(`DELETE FROM rate_limit_counters WHERE key = :key`, { key });
  }

  /** Deletes the counters whose window is over (per-process housekeeping, HousekeepingService). */
  async purgeExpired(): Promise<void> {
    await this.query(`DELETE FROM rate_limit_counters WHERE expires_at < now()`, {});
  }

  private query<T extends object>(sql: string, replacements: Record<string, unknown>): Promise<T[]> {
    const type = /RETURNING|^\s*SELECT/i.test(sql) ? QueryTypes.SELECT : QueryTypes.UPDATE;
    // Outside any request transaction: a counter must count even when the request fails.
    return this.sequelize.query<T>(sql, { replacements, type, transaction: null } as never) as Promise<T[]>;
  }
}

export interface RateLimitRouteOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** What @fastify/rate-limit asks of a store. */
export interface RateLimitStore {
  incr(key: string, cb: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void;
  child(routeOptions: RateLimitRouteOptions): RateLimitStore;
}

/**
 * A store for @fastify/rate-limit on these counters (the plugin calls `new Store(options)`, then
 * `child(routeOptions)` per route and `incr(key, cb, timeWindow)` per request). Each route counts
 * apart: its method and path are part of the key.
 */
export function postgresRateLimitStore(counters: AttemptCounters): new (options?: RateLimitRouteOptions) => RateLimitStore {
  return class PostgresRateLimitStore implements RateLimitStore {
    readonly bucket: string;

    constructor(options: RateLimitRouteOptions = {}) {
      const route = options.routeInfo;
      this.bucket = route?.url ? `route ${[route.method].flat().join(',')} ${route.url}` : 'route *';
    }

    incr(key: string, cb: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      counters.hit(counterKey(this.bucket, key), timeWindow).then(
        ({ hits, resetInMs }) => cb(null, { current: hits, ttl: resetInMs }),
        (err: Error) => cb(err),
      );
    }

    child(routeOptions: RateLimitRouteOptions): RateLimitStore {
      return new PostgresRateLimitStore(routeOptions);
    }
  };
}
