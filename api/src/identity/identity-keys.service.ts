import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import { randomUUID } from 'crypto';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';

/**
 * The identity server's signing keys. Created once and kept in PostgreSQL so every API replica
 * signs and verifies with the same keys and tokens survive a restart.
 */
@Injectable()
export class IdentityKeys {
  private privateJwks?: Promise<JWK[]>;
  private keySet?: Promise<ReturnType<typeof createLocalJWKSet>>;

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** Private JWKs for oidc-provider's `jwks` option. */
  signingJwks(): Promise<JWK[]> {
    this.privateJwks ??= this.loadOrCreate();
    return this.privateJwks;
  }

  /** Public key set that verifies access tokens. */
  verificationKeySet() {
    this.keySet ??= this.signingJwks().then((keys) =>
      createLocalJWKSet({ keys: keys.map(({ d, p, q, dp, dq, qi, ...pub }) => pub) }),
    );
    return this.keySet;
  }

  private async loadOrCreate(): Promise<JWK[]> {
    // Replicas starting together serialise on an advisory lock: the first creates the key, the rest read it.
    return this.sequelize.transaction(async (transaction) => {
      await this.sequelize.query('SELECT pg_advisory_xact_lock(731001)', { transaction });
      const existing = await this.sequelize.query<{ private_jwk: JWK }>(
        'SELECT private_jwk FROM identity_keys ORDER BY created_at',
        { type: QueryTypes.SELECT, transaction },
      );
      if (existing.length) return existing.map((r) => r.private_jwk);
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
      await this.sequelize.query('INSERT INTO identity_keys (kid, private_jwk) VALUES (:kid, :jwk)', {
        replacements: { kid: jwk.kid, jwk: JSON.stringify(jwk) },
        transaction,
      });
      return [jwk];
    });
  }
}
