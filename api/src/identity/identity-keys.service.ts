import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTVerifyGetKey } from 'jose';
import { randomUUID } from 'crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { config } from '../config';
import { sealPrivateJwk, unsealPrivateJwk } from './key-sealing';

/**
 * The identity server's signing keys, kept in PostgreSQL so every API replica signs and verifies
 * with the same keys and tokens survive a restart.
 *
 * - At rest the private key is sealed with AES-256-GCM under a key derived from APP_SECRET (HKDF),
 *   the key id bound as associated data; only the public half is stored in clear. A key an earlier
 *   version stored in clear is sealed the first time the API reads it.
 * - The signing key is replaced once it is KEY_ROTATION_DAYS old. The old one stops signing but
 *   stays published (JWKS) and accepted until every token it signed has expired, then is deleted.
 * - Each replica re-reads the key list at most every few seconds, when it is used: a rotation made
 *   by one replica reaches the others within SNAPSHOT_TTL_MS, and a token naming a key this replica
 *   does not know yet makes it look again at once.
 */
const ADVISORY_LOCK = 731001;
const SNAPSHOT_TTL_MS = 5000;
const ID_TOKEN_TTL_SECONDS = 60 * 60; // identity.server.ts ttl.IdToken
/** A retired key verifies for the longest lifetime of a token it signed, plus an hour for clock skew and caches. */
const retentionSeconds = () => Math.max(config.identity.accessTokenTtlSeconds, ID_TOKEN_TTL_SECONDS) + 60 * 60;
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

interface KeyRow {
  kid: string;
  public_jwk: JWK | null;
  sealed_private_jwk: string | null;
  /** Written by versions before sealing; emptied when sealed. */
  private_jwk: JWK | null;
  retired: boolean;
  due: boolean;
  expired: boolean;
}

interface Snapshot {
  at: number;
  /** Changes whenever the set of keys or the signing key changes. */
  version: string;
  /** Private JWKs for oidc-provider, the signing key first (it signs with the first that fits). */
  signing: JWK[];
  verify: JWTVerifyGetKey;
}

const publicPart = (jwk: JWK): JWK => {
  const pub = { ...jwk };
  for (const m of PRIVATE_MEMBERS) delete pub[m];
  return pub;
};

@Injectable()
export class IdentityKeys {
  private readonly log = new Logger('identity');
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  private readonly unsealed = new Map<string, JWK>();

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** Private JWKs for oidc-provider's `jwks` option, the signing key first. */
  async signingJwks(): Promise<JWK[]> {
    return (await this.current()).signing;
  }

  /** Changes when the keys change: the identity server then builds its provider again. */
  async version(): Promise<string> {
    return (await this.current()).version;
  }

  /** Verifies access tokens (a jose key resolver): every published key, re-read when a token names an unknown one. */
  async verificationKeySet(): Promise<JWTVerifyGetKey> {
    await this.current();
    return async (header, token) => {
      let s = await this.current();
      try {
        return await s.verify(header, token);
      } catch (err) {
        if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || Date.now() - s.at < 1000) throw err;
        s = await this.current(true);
        return s.verify(header, token);
      }
    };
  }

  private current(force = false): Promise<Snapshot> {
    const s = this.snapshot;
    if (s && !force && Date.now() - s.at < SNAPSHOT_TTL_MS) return Promise.resolve(s);
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(): Promise<Snapshot> {
    let rows = await this.read();
    const unretired = rows.filter((r) => !r.retired);
    const needsWork =
      unretired.length !== 1 ||
      unretired[0].due ||
      rows.some((r) => r.private_jwk !== null || !r.sealed_private_jwk || !r.public_jwk || r.expired);
    if (needsWork) rows = await this.maintain();

    const signing = rows.map((r) => this.unseal(r));
    for (const kid of [...this.unsealed.keys()]) if (!rows.some((r) => r.kid === kid)) this.unsealed.delete(kid);
    const version = rows.map((r) => `${r.kid}${r.retired ? '-' : '+'}`).join(' ');
    if (this.snapshot && this.snapshot.version !== version) this.log.log(`identity signing keys now: ${version}`);
    const snapshot: Snapshot = { at: Date.now(), version, signing, verify: createLocalJWKSet({ keys: signing.map(publicPart) }) };
    this.snapshot = snapshot;
    return snapshot;
  }

  /** The keys, the signing key (newest not retired) first, then the retired ones newest first. */
  private read(transaction?: Transaction): Promise<KeyRow[]> {
    const rotationDays = config.identity.keyRotationDays;
    return this.sequelize.query<KeyRow>(
      `SELECT kid, public_jwk, sealed_private_jwk, private_jwk, retired_at IS NOT NULL AS retired,
              (:rotationDays > 0 AND created_at <= now() - make_interval(days => :rotationDays)) AS due,
              (retired_at IS NOT NULL AND retired_at <= now() - make_interval(secs => :retention)) AS expired
         FROM identity_keys
        ORDER BY retired_at IS NOT NULL, coalesce(retired_at, created_at) DESC, created_at DESC`,
      { replacements: { rotationDays, retention: retentionSeconds() }, type: QueryTypes.SELECT, transaction: transaction ?? (null as never) },
    );
  }

  /**
   * Seals keys stored in clear, retires all but the newest unretired key, rotates a signing key
   * past its age, deletes keys whose tokens have all expired. Replicas serialise on an advisory
   * lock: the first does the work, the others find it done.
   */
  private maintain(): Promise<KeyRow[]> {
    return this.sequelize.transaction(async (transaction) => {
      const q = (sql: string, replacements: Record<string, unknown> = {}) => this.sequelize.query(sql, { replacements, transaction });
      await q(`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK})`);
      let rows = await this.read(transaction);

      for (const r of rows.filter((x) => x.private_jwk !== null)) {
        const jwk = { ...r.private_jwk!, kid: r.kid };
        await q(`UPDATE identity_keys SET sealed_private_jwk = :sealed, public_jwk = :pub, private_jwk = NULL WHERE kid = :kid`, {
          kid: r.kid,
          sealed: sealPrivateJwk(r.kid, jwk),
          pub: JSON.stringify(publicPart(jwk)),
        });
        this.log.log(`identity key ${r.kid} was stored in clear: sealed`);
      }
      const [signing, ...others] = rows.filter((r) => !r.retired);
      for (const r of others) await q(`UPDATE identity_keys SET retired_at = now() WHERE kid = :kid`, { kid: r.kid });
      if (!signing || signing.due) {
        if (signing) await q(`UPDATE identity_keys SET retired_at = now() WHERE kid = :kid`, { kid: signing.kid });
        const { privateKey } = await generateKeyPair('RS256', { extractable: true });
        const kid = randomUUID();
        const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
        await q(`INSERT INTO identity_keys (kid, public_jwk, sealed_private_jwk) VALUES (:kid, :pub, :sealed)`, {
          kid,
          pub: JSON.stringify(publicPart(jwk)),
          sealed: sealPrivateJwk(kid, jwk),
        });
        this.unsealed.set(kid, jwk);
        if (signing) this.log.log(`identity signing key ${signing.kid} rotated: ${kid} signs from now on`);
      }
      const expired = rows.filter((r) => r.expired).map((r) => r.kid);
      if (expired.length) await q(`DELETE FROM identity_keys WHERE kid IN (:expired)`, { expired });

      rows = await this.read(transaction);
      return rows;
    });
  }

  private unseal(row: KeyRow): JWK {
    let jwk = this.unsealed.get(row.kid);
    if (!jwk) {
      jwk = row.sealed_private_jwk ? unsealPrivateJwk(row.kid, row.sealed_private_jwk) : { ...row.private_jwk!, kid: row.kid };
      this.unsealed.set(row.kid, jwk);
    }
    return jwk;
  }
}
