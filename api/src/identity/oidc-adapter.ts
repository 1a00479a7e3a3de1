import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';

interface PayloadRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/**
 * oidc-provider's storage (sessions, grants, codes, tokens, interactions) in the `oidc_payloads`
 * table, so every API replica sees the same state and a restart signs nobody out.
 * One adapter instance per model name; rows are keyed by (type, id).
 */
export function postgresAdapter(sequelize: Sequelize, o: { sessionMaxSeconds?: number } = {}): AdapterConstructor {
  // Queries run outside any request transaction: oidc-provider's writes must not roll back with a request.
  const run = <T extends object>(sql: string, bind: unknown[], select: boolean) =>
    sequelize.query<T>(sql, { bind, type: select ? QueryTypes.SELECT : QueryTypes.RAW, transaction: null } as any) as Promise<T[]>;

  const toPayload = (rows: PayloadRow[]): AdapterPayload | undefined => {
    const row = rows[0];
    if (!row) return undefined;
    return {
      ...row.payload,
      ...(row.consumed_at ? { consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : undefined),
    };
  };

  /**
   * A session past the absolute cap from its sign-in is gone, whatever its stored expiry: the
   * session's lifetime is renewed by each visit and is at least 1 s (0 means "never" here), so a
   * visit just after the cap would otherwise keep it alive a second longer, again and again.
   */
  const pastCap = (type: string, p: AdapterPayload | undefined) =>
    type === 'Session' && !!o.sessionMaxSeconds && typeof p?.loginTs === 'number' && Math.floor(Date.now() / 1000) - p.loginTs >= o.sessionMaxSeconds;

  return class PostgresAdapter implements Adapter {
    constructor(private readonly type: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await run(
        `INSERT INTO oidc_payloads (type, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (type, id) DO UPDATE
           SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
               uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [
          this.type,
          id,
          JSON.stringify(payload),
          payload.grantId ?? null,
          payload.userCode ?? null,
          payload.uid ?? null,
          typeof expiresIn === 'number' && expiresIn > 0 ? Math.ceil(expiresIn) : null,
        ],
        false,
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const p = toPayload(await this.select('id = $2', id));
      return pastCap(this.type, p) ? undefined : p;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const p = toPayload(await this.select('uid = $2', uid));
      return pastCap(this.type, p) ? undefined : p;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return toPayload(await this.select('user_code = $2', userCode));
    }

    async consume(id: string): Promise<void> {
      await run('UPDATE oidc_payloads SET consumed_at = now() WHERE type = $1 AND id = $2', [this.type, id], false);
    }

    async destroy(id: string): Promise<void> {
      await run('DELETE FROM oidc_payloads WHERE type = $1 AND id = $2', [this.type, id], false);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await run('DELETE FROM oidc_payloads WHERE type = $1 AND grant_id = $2', [this.type, grantId], false);
    }

    private select(where: string, value: string): Promise<PayloadRow[]> {
      return run<PayloadRow>(
        `SELECT payload, consumed_at FROM oidc_payloads
          WHERE type = $1 AND ${where} AND (expires_at IS NULL OR expires_at > now())
          LIMIT 1`,
        [this.type, value],
        true,
      );
    }
  };
}

/** Deletes expired rows; safe to run on every replica at once. Returns the number removed. */
export async function purgeExpiredPayloads(sequelize: Sequelize): Promise<number> {
  const [, meta] = (await sequelize.query(
    `DELETE FROM oidc_payloads WHERE expires_at < now() - interval '1 minute'`,
    { transaction: null } as any,
  )) as [unknown, { rowCount?: number }];
  await sequelize.query(`DELETE FROM mfa_codes WHERE expires_at < now() - interval '1 day'`, { transaction: null } as any);
  return meta?.rowCount ?? 0;
}
