import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Sign-in hardening:
 * - rate_limit_counters: the request limits and failure delays of the sign-in steps, shared by
 *   every API replica (identity/attempt-counters.ts). UNLOGGED: counters are worth no WAL, and
 *   after a crash they start again from zero, which only relaxes the limits for a while;
 * - user_sign_in_addresses: the addresses a user completed a sign-in from; wrong passwords from
 *   one of them count towards her lock-out, from anywhere else they are only delayed;
 * - identity_keys: the private key sealed (AES-256-GCM) instead of in clear, its public half
 *   beside it, and when it stopped signing (rotation). Keys still in clear are sealed by the API
 *   at start (identity-keys.service.ts), which alone knows APP_SECRET.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE UNLOGGED TABLE rate_limit_counters (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      last_hit_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX rate_limit_counters_expiry_idx ON rate_limit_counters (expires_at);

    CREATE TABLE user_sign_in_addresses (
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      address text NOT NULL,
      last_sign_in_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, address)
    );

    ALTER TABLE identity_keys
      ALTER COLUMN private_jwk DROP NOT NULL,
      ADD COLUMN public_jwk jsonb,
      ADD COLUMN sealed_private_jwk text,
      ADD COLUMN retired_at timestamptz;
  `);
};

/** Sealed keys cannot go back to clear here (no APP_SECRET): they are dropped, and the old code makes a new one. */
export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DELETE FROM identity_keys WHERE private_jwk IS NULL;
    ALTER TABLE identity_keys
      DROP COLUMN IF EXISTS retired_at,
      DROP COLUMN IF EXISTS sealed_private_jwk,
      DROP COLUMN IF EXISTS public_jwk,
      ALTER COLUMN private_jwk SET NOT NULL;
    DROP TABLE IF EXISTS user_sign_in_addresses;
    DROP TABLE IF EXISTS rate_limit_counters;
  `);
};
