import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';

// One-time codes are named for what they are (mfaCode, verificationCode, ...): a bare `code` (billing
// code, payer code) and zipCode are data, not secrets, and stay readable in the log.
const SECRET_KEYS = /password|token|secret|otp|(mfa|verification|sign-?in|one-?time|auth|sms|email|reset)[-_]?code$/i;

/**
 * A patient's identifiers (HIPAA): the audit log shows that they were given or changed, not their
 * values — a value becomes '***', a blank stays null.
 */
const IDENTIFYING_KEYS = /^(ssn|dateOfBirth)$/i;

/** Drops secrets (passwords, tokens, one-time codes) and masks identifiers in a body before it is stored. */
export function redact(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redact);
  if (body && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body))
      out[k] = SECRET_KEYS.test(k) ? '***' : IDENTIFYING_KEYS.test(k) ? (v === null || v === undefined || v === '' ? v : '***') : redact(v);
    return out;
  }
  return body;
}

/** A NUL, or half a surrogate pair: PostgreSQL's jsonb holds neither. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The value with every such character (in strings and keys) replaced by U+FFFD. Bodies are checked
 * at the edge, but route parameters are not (a path may hold %00): an entry that cannot be written
 * would leave the call unrecorded, and a guard's refusal would be invisible in the log.
 */
export function storable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '\ufffd');
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k.replace(UNSTORABLE, '\ufffd')] = storable(v);
    return out;
  }
  return value;
}

export interface AuditRecord {
  mainAction: string;
  kind: string;
  user?: { id: number; firstName: string; lastName: string; email: string; role: string; organizationName?: string | null; facilityId?: number | null; divisionName?: string | null } | null;
  success: boolean;
  method?: string;
  path?: string;
  statusCode?: number;
  correlationId?: string;
  body?: unknown;
  values?: Record<string, unknown>;
  /** The facility whose scoped log shows the entry; by default values.facilityId, else the user's facility. */
  facilityId?: number | null;
}

@Injectable()
export class AuditService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /**
   * Appends an entry; inside a transaction (CLS) it commits or rolls back with the change it records.
   * One plain INSERT: every mutating call writes one, and a model instance (build, validate, read
   * back) cost more CPU than the statement itself.
   */
  async record(r: AuditRecord): Promise<void> {
    const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
    await this.sequelize.query(
      `INSERT INTO audit_log (main_action, kind, user_id, user_name, email, user_type, organization, facility_id, division,
                              success, method, path, status_code, correlation_id, body, "values")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb)`,
      {
        type: QueryTypes.INSERT,
        bind: [
          r.mainAction,
          r.kind,
          r.user?.id ?? null,
          r.user ? `${r.user.firstName} ${r.user.lastName}` : null,
          r.user?.email ?? null,
          r.user?.role ?? null,
          r.user?.organizationName ?? null,
          r.facilityId !== undefined ? r.facilityId : ((r.values?.facilityId as number | undefined) ?? r.user?.facilityId ?? null),
          r.user?.divisionName ?? null,
          r.success,
          r.method ?? null,
          r.path ?? null,
          r.statusCode ?? null,
          r.correlationId ?? null,
          json(r.body === undefined ? null : storable(redact(r.body))),
          json(r.values ? storable(r.values) : null),
        ],
      },
    );
  }
}
