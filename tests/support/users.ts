/**
 * Users made for one suite, so that deactivating, locking or revoking them leaves the demo users
 * usable by every other suite. Written straight to the database (with the product's password
 * hash), then signed in through the real identity flow.
 */
import { OrganizationType, UserType } from '@crisis/forms';
import { hashPassword } from '../../api/src/identity/password-hash';
import { db } from './db';
import { signIn } from './oidc-client';

export const TEST_USER_PASSWORD = 'Correct-Horse7';

export interface TestUser {
  id: number;
  email: string;
  name: string;
  /** A fresh access token of this user. */
  signIn(): Promise<string>;
}

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
let n = 0;

/** An active user of the ITP (facilityId unset) or of a facility, in the given divisions. */
export async function createTestUser(
  role: UserType,
  o: { facilityId?: number; divisionIds?: number[]; label?: string } = {},
): Promise<TestUser> {
  const label = `${o.label ?? 'user'}${++n}`;
  const email = `qa-${run}-${label}@test.example`.toLowerCase();
  const organizationType = o.facilityId ? OrganizationType.Facility : OrganizationType.ITP;
  const { rows } = await db.query(
    `INSERT INTO users (first_name, last_name, email, is_active, creating, email_confirmed, password_hash,
                        organization_type, organization_id, user_type, provider_info)
     VALUES ('Qa', $1, $2, true, false, true, $3, $4, $5, $6, $7) RETURNING id`,
    [
      `Tester ${label}`,
      email,
      await hashPassword(TEST_USER_PASSWORD),
      organizationType,
      o.facilityId ?? null,
      role,
      role === UserType.ItpProvider ? { providerType: 'MD', npi: '1' } : null,
    ],
  );
  const id = rows[0].id as number;
  for (const divisionId of o.divisionIds ?? []) await db.query('INSERT INTO user_divisions (user_id, division_id) VALUES ($1, $2)', [id, divisionId]);
  return {
    id,
    email,
    name: `Qa Tester ${label}`,
    signIn: async () => (await signIn({ email, password: TEST_USER_PASSWORD })).accessToken,
  };
}
