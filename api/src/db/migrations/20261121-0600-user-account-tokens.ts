import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * One-time links e-mailed to users (invitation: set a password; reset password). Only a SHA-256
 * hash of the token is stored; a link is used once and expires. Plus the indexes of the user list.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE user_account_tokens (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('invitation', 'reset-password')),
      token_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX user_account_tokens_hash_uniq ON user_account_tokens (token_hash);
    CREATE INDEX user_account_tokens_user_idx ON user_account_tokens (user_id);
    CREATE INDEX users_name_sort_idx ON users (lower(first_name), lower(last_name), id);
    CREATE INDEX users_user_type_idx ON users (user_type);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS users_user_type_idx;
    DROP INDEX IF EXISTS users_name_sort_idx;
    DROP TABLE IF EXISTS user_account_tokens;
  `);
};
